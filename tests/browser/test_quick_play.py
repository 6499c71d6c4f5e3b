"""A newcomer alone at night: sign up, press Chơi nhanh, finish a round against bots."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.browser.conftest import DESKTOP, PASSWORD


def test_a_new_player_signs_up_presses_quick_play_and_finishes_a_round_against_bots(
    pages: Any, shoot: Any
) -> None:
    base = pages.site.url
    page = pages.new(DESKTOP, "lan")
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", "lan")
    page.fill("#id_display_name", "Lan")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(base + "/")

    # docs/rules.md: a quick-play table waits for nobody. Its bots sit down and the cards
    # are dealt as the table opens: the page's first snapshot already holds them (issue 25
    # item 10: no "waiting for other players", no countdown between the click and the cards).
    frames: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda payload: frames.append(json.loads(payload)) if "/ws/tables/" in ws.url else None,
        ),
    )
    page.click("#quick-play")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    snapshot = next(f for f in frames if f.get("type") == "snapshot")
    assert snapshot["round"]["state"] == "arranging"
    assert len(snapshot["round"]["you"]["cards"]) == 13
    assert [f["type"] for f in frames if f.get("type") == "countdown"] == []
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
