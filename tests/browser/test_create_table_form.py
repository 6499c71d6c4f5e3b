"""The create-table form shows the rules of the table being made, live: as the preset and the
house rules change, the box says what games.rules makes of them, the timeout rule in words."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules import Rules
from tests.browser.conftest import DESKTOP, PHONE, SIZES, axe_violations
from tests.browser.test_header_menu import NO_SIDEWAYS_SCROLL, OUTSIDE_THE_SCREEN
from tests.games.test_effective_rules_view import expected

pytestmark = pytest.mark.browser

SHOWN = """(preset) => Object.fromEntries([...document.querySelectorAll(
  `#effective-rules [data-preset=${preset}] [data-rule]`)].map(
  (span) => [span.dataset.rule, span.dataset.value || span.textContent.trim()]))"""


def answered(page: Any) -> None:
    """Waits until the box holds the server's answer to the last change."""
    page.wait_for_selector("#effective-rules:not([aria-busy])", state="attached")


def test_the_form_shows_the_rules_of_the_table_being_made_as_the_fields_change(  # type: ignore[no-untyped-def]
    pages, shoot
) -> None:
    page = pages.login("dung", DESKTOP)
    box = page.locator("#effective-rules")
    assert page.evaluate(SHOWN, "portal") == expected(Rules.preset("portal"))
    assert "được xếp giúp" in box.inner_text()

    page.locator(".house-rules summary").click()
    page.fill("#id_arrange_seconds", "120")
    page.fill("#id_scoop_one", "4")
    page.fill("#id_bonus_quads_chi1", "15")
    page.select_option("#id_on_timeout", "foul")
    answered(page)
    overrides = {
        "arrange_seconds": 120,
        "scoop_one": 4,
        "bonus": {"quads_chi1": 15},
        "on_timeout": "foul",
    }
    assert page.evaluate(SHOWN, "portal") == expected(
        Rules.preset("portal").with_overrides(overrides)
    )
    assert "bài không gửi kịp giờ là binh lủng" in box.inner_text()
    # On a phone the open house rules fit the screen: nothing only a sideways scroll away.
    page.set_viewport_size(PHONE)
    assert page.evaluate(OUTSIDE_THE_SCREEN) == []
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.set_viewport_size(DESKTOP)
    shoot(page, "create-form-house-rules", SIZES)

    # Another preset keeps the house rules and brings its own values for the rest.
    page.select_option("#id_preset", "classic")
    answered(page)
    classic = page.evaluate(SHOWN, "classic")
    assert classic == expected(Rules.preset("classic").with_overrides(overrides))
    assert classic["scoop_all_min"] == "2"  # the classic preset's, not the portal's 1
    assert box.locator("[data-preset=portal]").is_hidden()

    # A box that does not hold a valid value yet: the preset's own value, and a note.
    page.fill("#id_arrange_seconds", "200")
    answered(page)
    assert page.evaluate(SHOWN, "classic")["arrange_seconds"] == "80"
    note = page.locator("[data-testid=rules-not-applied]")
    assert "Thời gian xếp bài (giây)" in note.inner_text()
    assert axe_violations(page) == []
    shoot(page, "create-form-not-applied", SIZES)
