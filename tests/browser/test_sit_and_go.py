"""A sit-and-go of four from join to prizes: one person and three bots, in a browser.

Its own site with a fast structure (20 chips each, 10 a chi from the first round and a new
level every round, short reveals, quick bots), so it finishes in about a minute."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, SIZES, Site, axe_violations
from tests.support.migrated import copy_sqlite
from tests.support.processes import collect_static, daphne, server_env

pytestmark = pytest.mark.browser

FAST = {
    "TOURNAMENT_STARTING_STACK": "20",
    "TOURNAMENT_FIRST_STAKE": "10",
    "TOURNAMENT_LEVEL_ROUNDS": "1",
    "TOURNAMENT_REVEAL_SECONDS": "2",
    "TOURNAMENT_ARRANGE_SECONDS": "30",
    "BOTS_THINK_SECONDS": "0.3,0.8",
    # Long enough for the announcement to be looked at at four sizes before the deal.
    "TOURNAMENT_JOIN_SECONDS": "60",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """This module's own site (the package's ``site``, overridden): the fast structure."""
    from tests.browser.conftest import CREATE_USERS, PASSWORD

    tmp = tmp_path_factory.mktemp("sng-site")
    env = server_env(DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}", LOG_LEVEL="WARNING", **FAST)
    copy_sqlite(tmp / "db.sqlite3")  # migrated (tests.support.migrated)
    setup = Site("", env)
    collect_static(env)
    setup.manage("shell", "-c", CREATE_USERS.format(users=[("an", "An")], password=PASSWORD))
    with daphne(env, tmp / "daphne.log") as url:
        yield Site(url, env)


def _finished(page: Any) -> bool:
    return bool(page.locator("[data-testid=tournament-info] [data-testid=result]").inner_text())


def test_a_sit_and_go_of_four_with_three_bots_runs_from_join_to_prizes(
    pages: Any, shoot: Any
) -> None:
    started = time.monotonic()
    base = pages.site.url
    page = pages.login("an", DESKTOP)
    page.click("[data-testid=tournaments-link]")
    page.wait_for_url(base + "/tournaments/")
    assert not axe_violations(page)
    page.fill("#id_name", "Sit-and-go tối")
    page.fill("#id_players", "4")
    page.fill("#id_buy_in", "500")
    page.check("#id_allow_bots")
    page.click("[data-testid=create-tournament-submit]")
    page.wait_for_url(re.compile(r".*/tournaments/\d+/$"))
    assert "9.500" in page.locator("[data-testid=header-balance]").inner_text()
    page.click("[data-testid=start-now]")
    # The bots paid in too: four entrants, one table, the level schedule and prize table.
    page.wait_for_selector("[data-testid=my-table]:visible")
    assert page.locator("#standings-body tr").count() == 4
    assert page.locator("[data-testid=prize-table] li").count() == 1  # 4 players: all to 1st
    assert "2.000" in page.locator("[data-testid=prize-table]").inner_text()
    assert not axe_violations(page)
    shoot(page, "sit-and-go-started")

    # The table's first deal waits for me: the page names my table, counts its deal down
    # and beeps (issue 25, item 4); the deal comes once I am there.
    announce = page.locator("[data-testid=my-table-start]")
    announce.wait_for()
    assert "bàn 1" in (announce.inner_text() or "").lower()
    assert int(announce.get_attribute("data-seconds-left") or "0") > 0
    assert int(page.evaluate("document.body.dataset.tournamentBeeps || '0'")) >= 1
    # At every size the announcement, its countdown and the way to the table fit the
    # screen, and the standings keep their rank column.
    for size in SIZES:
        page.set_viewport_size(size)
        announce.scroll_into_view_if_needed()
        for part in (announce, page.locator("[data-testid=my-table-go]")):
            box = part.bounding_box()
            assert part.is_visible() and box is not None, size
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, (size, box)
        assert int(announce.get_attribute("data-seconds-left") or "0") > 0, size
        rank = page.locator("[data-testid=standings] thead th").first
        rank.scroll_into_view_if_needed()
        assert rank.is_visible() and (rank.bounding_box() or {"x": -1})["x"] >= 0, size
    page.set_viewport_size(DESKTOP)
    shoot(page, "sit-and-go-your-table", SIZES)
    page.click("[data-testid=my-table-go]")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    page.wait_for_selector("[data-testid=tournament-info]")
    assert page.locator("#leave-button").is_hidden()  # nobody leaves a tournament table
    rounds = 0
    deadline = time.monotonic() + 100
    while not _finished(page) and time.monotonic() < deadline:
        try:
            page.wait_for_function(
                "document.querySelector('#suggest')?.checkVisibility()"
                " || !!document.querySelector('#tournament-info #result')?.textContent",
                timeout=30_000,
            )
        except Exception:
            continue
        if _finished(page):
            break
        page.click("#suggest")
        page.wait_for_selector("#suggestions button.suggestion")
        page.locator("#suggestions button.suggestion").first.click()
        page.click("#submit")
        rounds += 1
        if rounds == 1:
            shoot(page, "sit-and-go-table")
        # The showdown begins once everyone has sent (the bots are quick).
        page.wait_for_function("!document.querySelector('#suggest')?.checkVisibility()")
        if rounds == 1:
            # The round's summary counts chips, as the server says (its stakes_in), not xu.
            page.wait_for_selector("#summary[data-unit=chips]:not([hidden])", timeout=30_000)
            summary = page.locator("#summary").text_content() or ""
            assert "Kết quả (chip)" in summary
            assert not re.search(r"\bxu\b", summary), summary
    assert _finished(page), "the tournament did not finish in time"

    page.click("[data-testid=tournament-info] a")
    page.wait_for_url(re.compile(r".*/tournaments/\d+/$"))
    page.wait_for_function("document.querySelector('[data-testid=result]').textContent !== ''")
    rows = page.locator("#standings-body tr")
    assert rows.count() == 4
    places = [rows.nth(i).locator("td").first.inner_text() for i in range(4)]
    assert places == ["1", "2", "3", "4"]
    assert "2.000 xu" in rows.nth(0).inner_text()  # the winner takes the whole pool
    assert page.locator("#bust-order").inner_text().count(",") == 2  # three busted, in order
    assert not axe_violations(page)
    shoot(page, "sit-and-go-finished")
    assert (
        pages.site.manage("ledger_check").strip().endswith("OK: every balance matches its history")
    )
    assert time.monotonic() - started < 120
