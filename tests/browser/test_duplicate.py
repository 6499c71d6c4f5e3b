"""Duplicate deals in a real browser: the lobby badge, and "others with these cards" on the
round page once a second table has played the same board (docs/duplicate.md).

The rounds are played on the site's own database by the real services (the table page's
play is covered by test_rounds.py); the browser reads what players read.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE

SETUP = """
from accounts.models import User
from games import services
from games.services import duplicate
users = {u.username: u for u in User.objects.filter(username__in=["an", "binh", "dung", "em"])}
for user in users.values():
    services.stand(user)
schedule = duplicate.create_schedule(name="Giải lặp thử", boards=3,
                                     rules_overrides={"arrange_seconds": 30})
first = services.create_table(users["an"], name="Lặp A", stake=10, seats=2,
                              duplicate_schedule=schedule)
second = services.create_table(users["dung"], name="Lặp B", stake=10, seats=2,
                               duplicate_schedule=schedule)
print(json.dumps({"schedule": schedule.pk, "first": first.pk, "second": second.pk}))
"""

PLAY = """
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games import services
from games.models import Round
from games.rules import format_cards, parse_cards
from games.rules.arrange import naive_arrangement
names = {names!r}
users = [User.objects.get(username=name) for name in names]
for user in users:
    services.sit(user, {table})
round_ = services.start_round(users[0], {table})
for rp in round_.players.select_related("user"):
    chi = [format_cards(part) for part in naive_arrangement(parse_cards(rp.cards), "portal")]
    services.submit_arrangement(rp.user, round_.pk, chi)
for _ in range(8):
    round_.refresh_from_db()
    if round_.state == "settled":
        break
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    services.advance_round(round_.pk, round_.state, round_.phase)
for user in users:
    services.stand(user)
print(json.dumps({{"round": round_.pk, "state": round_.state}}))
"""


def _shell(site: Any, script: str) -> dict[str, Any]:
    out = site.manage("shell", "-c", "import json\n" + script)
    parsed: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return parsed


@pytest.mark.browser
def test_others_with_these_cards_appear_once_another_table_played_the_board(
    site, pages, shoot
) -> None:  # type: ignore[no-untyped-def]
    made = _shell(site, SETUP)
    an = pages.login("an", DESKTOP)
    badge = an.locator(f'.table-card[data-id="{made["first"]}"] [data-testid="duplicate-badge"]')
    assert badge.inner_text() == "Đấu lặp"

    mine = _shell(site, PLAY.format(names=["an", "binh"], table=made["first"]))
    assert mine["state"] == "settled"
    an.goto(f"{site.url}/history/{mine['round']}/")
    section = an.locator('[data-testid="others-with-these-cards"]')
    assert "Những người khác cầm bài này" in section.inner_text()
    assert an.locator('[data-testid="no-holders"]').is_visible()
    an.click("#verify-button")
    an.wait_for_function("() => /lặp/.test(document.getElementById('verify-result').textContent)")

    # The table page: a client seed does nothing here, and the seed comes with the board.
    an.goto(f"{site.url}/tables/{made['first']}/")
    note = an.locator('[data-testid="duplicate-seed-note"]')
    assert "hạt giống của bạn không có tác dụng" in (note.text_content() or "")  # folded
    seed = an.locator('[data-testid="summary-seed"]')
    seed.wait_for()
    assert "công khai khi bộ chia đã chơi xong" in seed.inner_text()
    assert re.search(r"SHA-256: [0-9a-f]{64}", seed.inner_text())
    assert an.locator("#summary .summary-links").inner_text().startswith("Chi tiết ván")

    # Em has not played board 1: its rounds do not exist for her yet.
    em = pages.login("em", PHONE)
    # (Asked with her cookies, not by navigating: a 404 page logs a console error.)
    assert em.context.request.get(f"{site.url}/history/{mine['round']}/").status == 404
    # Watching table A she sees who played, not a card nor anyone's result, and no link to
    # the round.
    em.goto(f"{site.url}/tables/{made['first']}/")
    em.locator(".summary-withheld").wait_for()
    assert em.locator("[data-card]").count() == 0
    assert em.locator("#summary tr[data-user]").count() == 2
    assert em.locator("#summary tr[data-xu]").count() == 0
    assert "Chi tiết ván" not in em.locator("#summary .summary-links").inner_text()

    theirs = _shell(site, PLAY.format(names=["dung", "em"], table=made["second"]))
    an.goto(f"{site.url}/history/{mine['round']}/")
    holder = an.locator(f'[data-testid="holder"][data-round="{theirs["round"]}"]')
    assert "Dũng" in holder.inner_text()
    assert holder.locator(".chi-line").count() == 3
    assert holder.locator(".chi-line .pcard").count() == 13
    assert an.locator('[data-testid="my-duplicate-score"]').is_visible()
    shoot(an, "duplicate-others-with-these-cards")

    # Em has played board 1 now: An's round of it opens for her, on a phone too.
    em.goto(f"{site.url}/history/{mine['round']}/")
    assert re.search(r"Lặp A", em.content())
    holders = em.locator('[data-testid="others-with-these-cards"]')
    assert holders.count() == 0  # An's round is not hers: no holders of her cards there
    em.goto(f"{site.url}/history/{theirs['round']}/")
    assert "Bình" in em.locator('[data-testid="others-with-these-cards"]').inner_text()
    shoot(em, "duplicate-others-phone")
