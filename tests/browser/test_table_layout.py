"""Your hand, your clock, your buttons: at the deal and while arranging, your 13 cards (or
your three rows), the clock and Xong / Gợi ý are all on screen without scrolling, on a small
phone, a phone, a tablet and a laptop; opponents are compact rows meanwhile and grow again
for the showdown; nothing spills out of the table. Screenshots of every step at each size.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import SIZES, axe_violations
from tests.support.scripted import BOT_NAMES, MINE, open_scripted_table, send

IDS = [f"{s['width']}x{s['height']}" for s in SIZES]

BOXES = """
(selectors) => Object.fromEntries(selectors.map((sel) => {
  const nodes = [...document.querySelectorAll(sel)].filter((n) => n.checkVisibility());
  if (!nodes.length) return [sel, null];
  const rects = nodes.map((n) => n.getBoundingClientRect());
  return [sel, {
    top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)),
    left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)),
    height: Math.max(...rects.map((r) => r.height)),
  }];
}))
"""
SPILLS = """
() => {
  const felt = document.getElementById('felt').getBoundingClientRect();
  const out = [];
  const parts = '#felt > *, #opponents > .seat, #felt .row, #felt .tray-wrap, #felt .actions';
  for (const node of document.querySelectorAll(parts)) {
    if (!node.checkVisibility()) continue;
    const r = node.getBoundingClientRect();
    if (r.left < felt.left - 0.5 || r.right > felt.right + 0.5) out.push(node.id || node.className);
  }
  if (document.documentElement.scrollWidth > window.innerWidth) out.push('page scrolls sideways');
  return out;
}
"""


def on_screen(page: Any, selectors: list[str]) -> dict[str, Any]:
    """Selectors whose visible boxes are not wholly inside the viewport (or not shown)."""
    size = page.viewport_size
    boxes = page.evaluate(BOXES, selectors)
    return {
        sel: box
        for sel, box in boxes.items()
        if box is None
        or box["top"] < 0
        or box["bottom"] > size["height"]
        or box["left"] < 0
        or box["right"] > size["width"]
    }


def opponent_height(page: Any) -> float:
    return float(
        page.evaluate(
            "Math.max(...[...document.querySelectorAll('#opponents .seat')]"
            ".map((n) => n.getBoundingClientRect().height))"
        )
    )


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_your_cards_clock_and_buttons_are_on_screen_while_you_arrange(  # type: ignore[no-untyped-def]
    pages, shoot, viewport
) -> None:
    size = f"{viewport['width']}x{viewport['height']}"
    page, ws, table, _ = open_scripted_table(pages, "em", viewport, f"Bàn {size}")
    send(ws, table.snapshot(None, start_at=None), table.chat_state())
    page.wait_for_selector("#table-page[data-state=live]")
    page.wait_for_selector("#chat-toggle:visible" if viewport["width"] <= 700 else "#chat:visible")
    shoot(page, f"layout-{size}-1-seated")
    idle_height = opponent_height(page)

    send(ws, *table.round_started())
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    page.wait_for_timeout(700)  # the deal's animation
    shoot(page, f"layout-{size}-2-dealt")
    assert on_screen(page, ["#me button.pcard", "#clock", "#submit", "#suggest"]) == {}
    tops = page.eval_on_selector_all("#tray .pcard", "cs => cs.map((c) => c.offsetTop)")
    assert len(set(tops)) == 1, "the 13 cards are one line"
    assert page.evaluate(SPILLS) == []
    # Opponents are compact rows while you arrange; a long name keeps its bot badge.
    assert opponent_height(page) <= 48
    long_seat = page.locator("#opponents .seat", has_text=BOT_NAMES[1][:10])
    assert long_seat.locator(".bot-badge").is_visible()
    badge = long_seat.locator(".bot-badge").bounding_box()
    seat_box = long_seat.bounding_box()
    assert badge["x"] + badge["width"] <= seat_box["x"] + seat_box["width"] + 0.5

    # Arrange by tapping: the three rows, the clock and the buttons stay on screen.
    for row, codes in (("1", MINE[:5]), ("2", MINE[5:10]), ("3", MINE[10:])):
        for code in codes:
            page.locator(f'#me button.pcard[data-card="{code}"]').click()
        page.click(f"#row-{row}-button")
        assert on_screen(page, ["#rows", "#clock", "#submit", "#suggest"]) == {}, row
    shoot(page, f"layout-{size}-3-arranged")
    assert page.evaluate(SPILLS) == []
    assert axe_violations(page) == []

    # The showdown: opponents grow again to show their chi.
    send(ws, table.submitted(0), table.reveal(1))
    page.wait_for_selector("#steps li.current")
    shoot(page, f"layout-{size}-4-chi-1")
    assert opponent_height(page) > 48
    assert opponent_height(page) >= idle_height
    send(ws, table.reveal(2), table.reveal(3))
    page.wait_for_selector("#steps li.current:text-is('Chi 3')")
    shoot(page, f"layout-{size}-5-chi-3")
    assert page.evaluate(SPILLS) == []
    assert long_seat.locator(".bot-badge").is_visible()  # grown, still cut short, still a bot
    badge = long_seat.locator(".bot-badge").bounding_box()
    seat_box = long_seat.bounding_box()
    assert badge["x"] + badge["width"] <= seat_box["x"] + seat_box["width"] + 0.5
    send(ws, table.settled())
    page.wait_for_selector("#summary:visible")
    shoot(page, f"layout-{size}-6-summary")
    assert page.evaluate(SPILLS) == []
    assert axe_violations(page) == []

    # The next round's countdown, on the summary; then the deal clears it.
    send(ws, table.countdown(5))
    page.wait_for_function("/\\d/.test(document.querySelector('#summary-next').textContent)")
    shoot(page, f"layout-{size}-7-countdown")
    table.round_id, table.number = 78, 2
    send(ws, *table.round_started())
    page.wait_for_selector("#summary", state="hidden")
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    page.wait_for_timeout(700)
    shoot(page, f"layout-{size}-8-next-deal")
    assert on_screen(page, ["#me button.pcard", "#clock", "#submit", "#suggest"]) == {}
