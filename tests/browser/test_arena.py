"""An arena of 3 minutes with three browser players (docs/tournaments.md, Arena): An creates
it, Bình and Dũng join, An starts it; each is taken to their board when seated, takes the
first suggestion (Gợi ý) and presses Xong, goes back to the queue, is seated again, and
sees the standings live on the table's arena panel; when the time is up the last boards
finish and every page shows the final ranking and the prize.

Slow on purpose: the arena's 3 minutes are real (the waits between boards are shortened by
the site's settings: tests/browser/conftest.py). About 3.5 minutes of wall time.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE

# The arena's three minutes, the start, the last board and the final pages: over the
# default 300 s of pytest-timeout.
# Its own xdist group: three minutes of a real arena run beside the other browser tests
# (its own site on the other worker, once the chaos run is done), not after them.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.timeout(600),
    pytest.mark.xdist_group("browser-arena"),
]

STAND_UP = """
from accounts.models import User
from games import services
for user in User.objects.filter(username__in=["an", "binh", "dung"]):
    services.stand(user)
"""


def play_a_step(page: Any, seen: dict[str, Any]) -> None:
    """On a board with cards to arrange: the first suggestion, then Xong. Notes whether
    the arena panel showed this player's points (the live state)."""
    from playwright.sync_api import Error

    if "/tables/" not in page.url:
        return
    try:
        if page.locator('[data-testid="my-points"]').inner_text(timeout=500).strip():
            seen["live"] = True
        if not page.locator("#actions").is_visible():
            return  # no hand of this player's being arranged now
        submit = page.locator("#submit")
        if "✓" in submit.inner_text(timeout=500) or not page.locator("#suggest").is_enabled():
            return  # sent already
        page.click("#suggest", timeout=2_000)
        page.locator("#suggestions button.suggestion").first.click(timeout=5_000)
        page.wait_for_function("() => !document.getElementById('submit').disabled", timeout=5_000)
        page.click("#submit", timeout=2_000)
        seen["submitted"] = True
    except Error as exc:
        seen["error"] = str(exc).splitlines()[0]
        return  # the page moved on (the next board, the showdown): the next step looks again


@pytest.mark.browser
def test_three_players_play_a_three_minute_arena_from_join_to_prizes(
    site: Any, pages: Any, shoot: Any
) -> None:
    site.manage("shell", "-c", STAND_UP)
    an = pages.login("an", DESKTOP)
    an.goto(f"{site.url}/tournaments/")
    an.click('[data-testid="new-arena"]')
    an.fill("#id_name", "Đấu trường 3 phút")
    an.fill("#id_minutes", "3")
    an.fill("#id_buy_in", "100")
    an.click('[data-testid="create-arena-submit"]')
    an.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    arena_url = an.url
    binh = pages.login("binh", PHONE)
    dung = pages.login("dung", DESKTOP)
    for page in (binh, dung):
        page.goto(arena_url)
        page.click('[data-testid="join"]')
        page.wait_for_selector('[data-testid="unregister"]')
    an.reload()
    assert an.locator("#standings-body tr").count() == 3
    assert "300" in an.locator('[data-testid="pool"]').inner_text()
    shoot(an, "arena-before-start")
    an.click('[data-testid="start-now"]')

    # Seated together after the short wait: every page opens the board by itself.
    players = {"an": an, "binh": binh, "dung": dung}
    for page in players.values():
        page.wait_for_url(re.compile(r"/tables/\d+/$"), timeout=30_000)
    first_tables = {page.url for page in players.values()}
    assert len(first_tables) == 1  # three waiting: one table of three

    seen: dict[str, dict[str, Any]] = {
        name: {"live": False, "submitted": False} for name in players
    }
    tables_seen: dict[str, set[str]] = {name: set() for name in players}
    deadline = time.monotonic() + 330
    while time.monotonic() < deadline:
        for name, page in players.items():
            if "/tables/" in page.url:
                tables_seen[name].add(page.url)
            play_a_step(page, seen[name])
        if all(page.url == arena_url for page in players.values()):
            break
        time.sleep(0.3)
    for name, page in players.items():
        page.wait_for_url(arena_url, timeout=30_000)
        assert seen[name]["submitted"], f"{name} never pressed Xong: {seen[name].get('error')}"
        assert seen[name]["live"], f"{name}'s board never showed the arena's points"
        assert len(tables_seen[name]) >= 2, f"{name} played one board only"

    # The final ranking and the prize: three entrants, the winner takes the pool.
    for page in players.values():
        # "An vô địch, nhận 300 xu." (the winner, from the live state)
        page.wait_for_function(
            "() => /vô địch/.test(document.getElementById('result').textContent)"
        )
        rows = page.locator("#standings-body tr")
        assert rows.count() == 3
        assert "300 xu" in rows.first.inner_text()
        assert [rows.nth(i).locator("td").first.inner_text() for i in range(3)] == ["1", "2", "3"]
        for i in range(3):
            assert int(rows.nth(i).get_attribute("data-boards") or 0) >= 2
    points = [
        int(an.locator("#standings-body tr").nth(i).get_attribute("data-points") or 0)
        for i in range(3)
    ]
    assert points == sorted(points, reverse=True)
    shoot(an, "arena-final")
    shoot(binh, "arena-final")
    site.manage("ledger_check")  # every pool nets to zero: exits non-zero otherwise
