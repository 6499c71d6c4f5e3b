"""The daily hand and practice on a phone: 13 cards and Submit in view, arranged by tapping,
the engine's verdict, the streak and the board after; axe-clean before and after."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.rules import format_cards, parse_cards
from games.rules.arrange import naive_arrangement
from tests.browser.conftest import PASSWORD, PHONE, axe_violations

NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"
SIGN_UP = """
from accounts import services
services.sign_up(username={name!r}, password={password!r}, display_name={display!r})
"""


def _in_view(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    view = page.viewport_size
    return bool(
        box
        and box["y"] >= 0
        and box["y"] + box["height"] <= view["height"] + 0.5
        and box["x"] >= 0
        and box["x"] + box["width"] <= view["width"] + 0.5
    )


def _arrange_by_tapping(page: Any) -> list[list[str]]:
    """Lay out the baseline arrangement (never binh lủng) by tapping cards, then a chi."""
    hand = json.loads(page.locator("#practice-hand").text_content())
    chi = [format_cards(part) for part in naive_arrangement(parse_cards(hand), "portal")]
    for n, part in enumerate(chi, start=1):
        for code in part:
            page.locator(f"#tray button.pcard[data-card='{code}']").tap()
        page.locator(f"#row-{n}-button").tap()
        assert page.locator(f"#row-{n}-cards button.pcard").count() == len(part)
    return chi


@pytest.mark.browser
def test_the_daily_hand_on_a_phone(site, pages, shoot) -> None:  # type: ignore[no-untyped-def]
    site.manage(
        "shell", "-c", SIGN_UP.format(name="ngay", password=PASSWORD, display="Người Chơi Ngày")
    )
    page = pages.login("ngay", PHONE, touch=True)
    page.locator("[data-testid=menu-toggle]").tap()
    page.locator("[data-testid=daily-link]").tap()
    page.wait_for_url("**/practice/daily/")
    cards = page.locator("#tray button.pcard")
    assert cards.count() == 13
    # All 13 cards and the submit button are on the screen without scrolling.
    for i in range(13):
        assert _in_view(page, cards.nth(i)), f"card {i} is off the screen"
    # Issue 25: the 13th card wrapped to a line of its own, and there was no intro.
    tops = page.eval_on_selector_all("#tray button.pcard", "cs => cs.map((c) => c.offsetTop)")
    assert len(set(tops)) == 1, "the 13 cards are one line"
    assert page.locator(".practice-lead").is_visible()
    submit = page.locator("[data-testid=submit-arrangement]")
    assert _in_view(page, submit) and submit.is_disabled()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    # Nothing of the answer is in the page before the player submits.
    source = page.content()
    assert "best-arrangement" not in source and 'data-testid="board"' not in source
    assert axe_violations(page) == []
    shoot(page, "daily-hand-dealt")

    _arrange_by_tapping(page)
    assert page.locator("#tray button.pcard").count() == 0
    assert submit.is_enabled() and _in_view(page, submit)
    shoot(page, "daily-hand-arranged")
    submit.dblclick()  # a double tap sends one attempt: the result, not an error
    page.locator("[data-testid=result]").wait_for()
    assert page.locator("[data-testid=error]").count() == 0
    assert page.locator("[data-testid=your-units]").is_visible()
    # The engine's best waits for the day's close (nobody can copy it): only mine is shown.
    assert page.locator("[data-testid=best-units]").count() == 0
    assert page.locator("[data-testid=best-later]").is_visible()
    assert page.locator("[data-testid=chi-reason]").count() == 3
    assert "1" in page.locator("[data-testid=streak]").text_content()
    board = page.locator("[data-testid=board]")
    assert "Người Chơi Ngày" in board.text_content()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert axe_violations(page) == []
    shoot(page, "daily-hand-result")

    # Coming back: the result again, no second try.
    page.goto(site.url + "/practice/daily/")
    assert page.locator("[data-testid=result]").is_visible()
    assert page.locator("#arrange-form").count() == 0


@pytest.mark.browser
def test_practice_hands_on_a_phone(pages, shoot) -> None:  # type: ignore[no-untyped-def]
    page = pages.login("em", PHONE, touch=True)
    page.goto(pages.site.url + "/lobby/")
    page.locator("[data-testid=lobby-practice-link]").tap()
    page.wait_for_url("**/practice/")
    first = json.loads(page.locator("#practice-hand").text_content())
    _arrange_by_tapping(page)
    page.locator("[data-testid=submit-arrangement]").tap()
    page.locator("[data-testid=result]").wait_for()
    assert page.locator("[data-testid=chi-reason]").count() == 6
    assert axe_violations(page) == []
    shoot(page, "practice-result")
    page.locator("[data-testid=new-hand]").tap()
    page.locator("#practice-hand").wait_for(state="attached")
    assert json.loads(page.locator("#practice-hand").text_content()) != first
    page.locator("#tray button.pcard").nth(12).wait_for()
    assert page.locator("#tray button.pcard").count() == 13
