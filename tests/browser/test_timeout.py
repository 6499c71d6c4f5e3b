"""The deadline in real browsers (docs/rules.md#timing): a hand nobody touched is arranged by
the engine, a complete layout that was never sent is played as laid out, and a table that
chose the strict rule still makes an unsent hand binh lủng. Results match the ledger."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from games.rules import Rules, parse_cards
from games.rules.instant import find_instant
from tests.browser.conftest import CREATE_USERS, DESKTOP, PASSWORD, PHONE, SIZES
from tests.browser.test_rounds import (
    best_legal,
    dealt,
    ledger_sum,
    round_id_of,
    row_cards,
    summary_row,
    tap_to_row,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLAYERS_OF_ROUND = """
import json
from games.models import RoundPlayer
rows = RoundPlayer.objects.filter(round_id={round_id}).select_related("user")
print(json.dumps({{p.user.username: {{"arrangement": p.arrangement, "auto": p.auto_arranged}}
    for p in rows}}))
"""


USERS = [("hoa", "Hoa"), ("khoa", "Khoa"), ("lam", "Lâm"), ("minh", "Minh")]
STAND_UP = """
from accounts.models import User
from games import services
for user in User.objects.filter(username__in={names!r}, seat__isnull=False):
    services.stand(user)
"""


@pytest.fixture(scope="module")
def created(site: Any) -> None:
    site.manage("shell", "-c", CREATE_USERS.format(users=USERS, password=PASSWORD))


@pytest.fixture
def people(site: Any, created: None) -> Any:
    yield
    # Even after a failure nobody stays seated: other tests' quick join must not land here.
    site.manage("shell", "-c", STAND_UP.format(names=[name for name, _ in USERS]))


def open_table(page: Any, name: str, *, strict: bool = False) -> str:
    """The lobby form: 30 s to arrange, the host starts by hand; the creator sits at once."""
    page.fill("#id_name", name)
    page.fill("#id_stake", "10")
    assert page.locator("#id_sit_down").is_checked()  # sitting at once is the default
    page.locator(".house-rules summary").click()
    page.fill("#id_start_seconds", "60")
    page.fill("#id_arrange_seconds", "30")
    page.fill("#id_reveal_seconds", "2")
    if strict:
        page.select_option("#id_on_timeout", "foul")
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    page.wait_for_selector("#me .seat-head")  # seated without pressing Sit
    return page.url


def sit_and_start(host: Any, guest: Any, table_url: str) -> None:
    guest.goto(table_url)
    guest.click("#sit-button")
    guest.wait_for_selector("#me .seat-head", timeout=30_000)
    host.wait_for_selector("#start-button", timeout=30_000)
    host.click("#start-button")


def leave(page: Any, base: str) -> None:
    """Stand up before the next deal (6 s after the summary), so no round runs on unwatched
    and no other test's quick join lands here."""
    if page.url.endswith("/lobby/"):
        return
    page.click("#leave-button")
    page.click("#leave-confirm")
    page.wait_for_url(base + "/lobby/")


def arrangement_of(site: Any, round_id: int) -> dict[str, Any]:
    out = site.manage("shell", "-c", PLAYERS_OF_ROUND.format(round_id=round_id))
    return json.loads(out.strip().splitlines()[-1])


def test_an_untouched_hand_is_auto_arranged_and_a_laid_out_hand_is_played_as_laid_out(  # type: ignore[no-untyped-def]
    pages, people, shoot
) -> None:
    base = pages.site.url
    hoa = pages.login("hoa", DESKTOP)
    table_url = open_table(hoa, "Bàn hết giờ")
    khoa = pages.login("khoa", PHONE, touch=True)
    sit_and_start(hoa, khoa, table_url)

    dealt(hoa)  # hoa never touches her cards
    khoa_cards = dealt(khoa)
    plan = best_legal(khoa_cards)
    for row, codes in zip("123", plan, strict=True):
        tap_to_row(khoa, codes, row)  # complete and legal, but Xong is never pressed
    # Another device (no local copy of the layout): the server's draft comes back.
    khoa.wait_for_timeout(1500)  # the page sends drafts at most once a second
    khoa.evaluate("sessionStorage.clear()")
    khoa.reload()
    dealt(khoa)
    assert [sorted(row_cards(khoa, row)) for row in "123"] == [sorted(p) for p in plan]
    assert khoa.locator("#submit").is_enabled()  # restored, still not sent
    # Shot after the checks: four sizes take seconds of the 30 s the hand has.
    shoot(khoa, "timeout-draft-laid-out", SIZES)

    # The deadline passes: both hands are played for their owners, marked tự xếp.
    hoa.wait_for_selector("#opponents .auto-badge[data-by=draft]", timeout=45_000)
    # The same showdown reaches khoa: as long a bound as hoa's (a loaded machine).
    khoa.wait_for_selector("#opponents .auto-badge[data-by=engine]", timeout=45_000)
    assert hoa.locator("#opponents .badge.danger:text-is('Binh lủng')").count() == 0
    # hoa sees the hand played for her in her own rows, marked as such.
    hoa.wait_for_selector("#me .auto-badge[data-by=engine]")
    assert [len(row_cards(hoa, row)) for row in "123"] == [5, 5, 3]
    shoot(hoa, "timeout-showdown", SIZES)
    hoa.wait_for_selector("#summary:visible", timeout=30_000)
    khoa.wait_for_selector("#summary:visible", timeout=30_000)
    shoot(hoa, "timeout-summary-hoa", SIZES)
    shoot(khoa, "timeout-summary-khoa", SIZES)
    assert hoa.locator("#summary tr.is-you .notes").inner_text().count("Tự xếp") == 1

    round_id = round_id_of(hoa)
    hoa_result, khoa_result = summary_row(hoa), summary_row(khoa)
    for page in (hoa, khoa):
        leave(page, base)
    played = arrangement_of(pages.site, round_id)
    assert played["khoa"]["auto"] == "draft"
    assert [sorted(p) for p in played["khoa"]["arrangement"]] == [sorted(p) for p in plan]
    assert played["hoa"]["auto"] == "engine" and played["hoa"]["arrangement"]

    # Settled exactly: each summary result is what the ledger moved, and they add up to 0.
    assert hoa_result["xu"] + khoa_result["xu"] == 0
    assert ledger_sum(hoa.context.new_page(), base, round_id) == hoa_result["xu"]
    assert ledger_sum(khoa.context.new_page(), base, round_id) == khoa_result["xu"]
    detail = hoa.context.new_page()
    detail.goto(f"{base}/history/{round_id}/")
    assert detail.locator(".round-player .auto-badge").count() == 2
    shoot(detail, "timeout-round-detail", SIZES)


def test_a_strict_table_keeps_the_old_rule_and_names_the_scoop_once(  # type: ignore[no-untyped-def]
    pages, people, shoot
) -> None:
    base = pages.site.url
    lam = pages.login("lam", DESKTOP)
    table_url = open_table(lam, "Bàn nghiêm", strict=True)
    minh = pages.login("minh", PHONE, touch=True)
    sit_and_start(lam, minh, table_url)

    dealt(lam)  # lam never touches the hand
    minh_cards = dealt(minh)
    minh_plan = best_legal(minh_cards)
    for row, codes in zip("123", minh_plan, strict=True):
        tap_to_row(minh, codes, row)
    minh.locator("#submit").tap()
    # Dealt a mậu binh (three flushes as laid out, six pairs...), Minh wins outright: no
    # chi is compared, so nobody is scooped (docs/rules.md). The deal is the server's.
    chi = tuple(parse_cards(codes) for codes in minh_plan)
    instant = find_instant(parse_cards(minh_cards), Rules.preset("portal"), chi)

    lam.wait_for_selector("#summary:visible", timeout=60_000)
    shoot(lam, "timeout-strict-summary", SIZES)
    notes = lam.locator("#summary tr.is-you .notes").inner_text()
    assert "binh lủng" in notes and "Tự xếp" not in notes
    # Named once; none when Minh's mậu binh compared no chi.
    assert lam.locator("#summary .scoop-list li").count() == (0 if instant else 1)
    round_id = round_id_of(lam)
    result, minh_result = summary_row(lam), summary_row(minh)
    breakdown = lam.locator("#summary .breakdown").inner_text()
    for page in (lam, minh):
        leave(page, base)
    played = arrangement_of(pages.site, round_id)
    assert played["lam"]["arrangement"] is None and played["lam"]["auto"] == ""
    assert result["xu"] < 0
    assert breakdown.endswith(f"= −{abs(result['xu']):,} xu".replace(",", "."))
    assert ledger_sum(lam.context.new_page(), base, round_id) == result["xu"]
    assert ledger_sum(minh.context.new_page(), base, round_id) == minh_result["xu"]
