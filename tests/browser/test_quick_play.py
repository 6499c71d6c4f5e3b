"""A newcomer alone at night: sign up, press Chơi nhanh, finish a round against bots."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pytest

from tests.browser.conftest import CREATE_USERS, DESKTOP, PASSWORD, SIZES, table_frames
from tests.browser.test_table_layout import IDS


def assert_no_wait(frames: list[dict[str, Any]]) -> None:
    """The page's first snapshot holds my dealt cards (a new table, dealt at once), or, at a
    table quick play joined, a deal due within 3 s (bots.services.QUICK_PLAY_MAX_WAIT_SECONDS)."""
    snapshot = next(f for f in frames if f.get("type") == "snapshot")
    round_ = snapshot["round"]
    if round_ and round_["state"] == "arranging" and round_.get("you"):
        assert len(round_["you"]["cards"]) == 13
        return
    now = datetime.fromisoformat(snapshot["server_now"])
    assert snapshot["start_at"], "no deal is due: the player would wait"
    assert (datetime.fromisoformat(snapshot["start_at"]) - now).total_seconds() <= 3.5


def test_a_new_player_signs_up_presses_quick_play_and_finishes_a_round_against_bots(
    pages: Any, shoot: Any
) -> None:
    page = pages.sign_up("lan", DESKTOP, display_name="Lan")

    # docs/rules.md: a quick-play table waits for nobody. Its bots sit down and the cards
    # are dealt as the table opens: the page's first snapshot already holds them (issue 25
    # item 10: no "waiting for other players", no countdown between the click and the cards).
    frames = table_frames(page)
    page.click("#quick-play")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    assert_no_wait(frames)
    assert page.locator("#opponents .seat:not(.seat-empty)").count() == 3
    assert page.locator("#opponents .bot-badge").count() == 3  # each bot says so on its seat
    page.wait_for_selector("#suggest:visible")
    shoot(page, "quick-play-arranging")
    page.click("#suggest")
    page.wait_for_selector("#suggestions button.suggestion")
    page.locator("#suggestions button.suggestion").first.click()
    assert page.locator("#foul-warning").is_hidden()
    page.click("#submit")

    page.wait_for_selector("#summary:visible", timeout=60_000)
    shoot(page, "quick-play-summary")
    rows = page.locator("#summary tbody tr")
    assert rows.count() == 4


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_quick_play_brings_the_cards_with_the_page_at_every_size(  # type: ignore[no-untyped-def]
    pages, shoot, viewport
) -> None:
    # Issue 25 item 10 at each size: click to cards with no wait for other players.
    name = f"nhanh{viewport['width']}"
    pages.site.manage(
        "shell", "-c", CREATE_USERS.format(users=[(name, name.capitalize())], password=PASSWORD)
    )
    page = pages.login(name, viewport)
    frames = table_frames(page)
    page.click("#quick-play")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    assert_no_wait(frames)
    shoot(page, f"quick-play-cards-{viewport['width']}x{viewport['height']}", [viewport])
    # Leave (the forfeit is this test's own xu) so that nothing plays on unwatched.
    page.click("#leave-button")
    page.click("#leave-confirm")
    page.wait_for_url(re.compile(r".*/(lobby/)?$"))
