"""The table as a phone player feels it (issue 25), at 360×640, 390×844, 768×1024 and
1366×768, against the scripted table server: a binh lủng hand needs a second, deliberate
step and no toast promises a change the table will not allow; the last 10 seconds say what
the deadline will do with the hand; Gợi ý opens over the hand with Xong still in reach.
Screenshots of each step land in test-artifacts/screenshots/ (phone-<step>-<w>x<h>.png).
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from tests.browser.conftest import SIZES, axe_violations
from tests.browser.scripted import MINE, STAKE, open_scripted_table, reopened, send
from tests.browser.test_table_layout import IDS

# MINE laid out so that chi 2 (two pairs) beats chi 1 (high card): binh lủng.
FOUL = [
    ["JH", "9D", "8S", "7C", "6H"],
    ["AS", "AH", "KS", "KD", "QC"],
    ["5D", "3S", "2H"],
]
LEGAL = [MINE[:5], MINE[5:10], MINE[10:]]
LEGAL_TOP = [["AS", "AH", "KS", "KD", "QC"], ["JH", "9D", "8S", "7C", "6H"], ["5D", "3S", "2H"]]


def _suggestion(chi: list[list[str]], win: list[float]) -> dict[str, Any]:
    return {"chi": chi, "win": win, "instant": None, "instant_name": None}


SUGGESTIONS = {
    "round": 77,
    "suggestions": [
        _suggestion(LEGAL_TOP, [0.81, 0.22, 0.35]),
        _suggestion(
            [["AS", "AH", "9D", "8S", "7C"], ["KS", "KD", "6H", "5D", "3S"], ["QC", "JH", "2H"]],
            [0.55, 0.48, 0.18],
        ),
        _suggestion(
            [["KS", "KD", "AS", "AH", "JH"], ["QC", "9D", "8S", "7C", "6H"], ["5D", "3S", "2H"]],
            [0.8, 0.1, 0.05],
        ),
    ],
}

# A visible box wholly inside the viewport, and the element a tap at its centre reaches.
REACHABLE = """
(selector) => {
  const node = document.querySelector(selector);
  if (!node || !node.checkVisibility()) return 'hidden';
  const r = node.getBoundingClientRect();
  const out = r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth;
  if (out) return 'off screen';
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit && (hit === node || node.contains(hit)) ? 'ok' : 'covered';
}
"""


def size_name(viewport: dict[str, int]) -> str:
    return f"{viewport['width']}x{viewport['height']}"


def lay_out(page: Any, chi: list[list[str]]) -> None:
    """Tap each chi's cards, then the chi."""
    for row, codes in zip(("1", "2", "3"), chi, strict=True):
        for code in codes:
            page.locator(f'#me button.pcard[data-card="{code}"]').click()
        page.click(f"#row-{row}-button")


def dealt(page: Any, ws: Any, table: Any) -> None:
    send(ws, table.snapshot(None), *table.round_started())
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")


def submits(received: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in received if m.get("type") == "submit"]


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_a_binh_lung_hand_is_sent_only_after_a_second_deliberate_step(  # type: ignore[no-untyped-def]
    pages, shoot, viewport
) -> None:
    size = size_name(viewport)
    page, ws, table, received = open_scripted_table(pages, "em", viewport, f"Bàn lủng {size}")
    dealt(page, ws, table)
    # The bots have finished: a hand sent now starts the showdown at once.
    send(ws, table.submitted(1), table.submitted(2), table.submitted(3))
    lay_out(page, FOUL)
    page.wait_for_selector("#foul-warning:visible")

    page.click("#submit")
    page.wait_for_selector("#foul-dialog[open]")
    assert submits(received) == []  # one tap sent nothing
    cost = page.locator("#foul-cost").inner_text()
    assert "3 đối thủ" in cost and f"{3 * STAKE * 3} xu" in cost
    shoot(page, f"phone-foul-confirm-{size}", [viewport])
    assert axe_violations(page) == []
    page.locator("#foul-dialog button[value=fix]").click()
    page.wait_for_selector("#foul-dialog:not([open])", state="attached")
    assert submits(received) == []

    page.click("#submit")
    page.wait_for_selector("#foul-dialog[open]")
    page.click("#foul-send")
    page.wait_for_function("document.querySelector('#toast').classList.contains('show')")
    assert [s["chi"] for s in submits(received)] == [FOUL]
    toast = page.locator("#toast").inner_text()
    assert "binh lủng" in toast
    assert "có thể đổi" not in toast  # everyone is done: nothing can change any more


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_the_sent_toast_promises_a_change_only_while_someone_still_arranges(  # type: ignore[no-untyped-def]
    pages, viewport
) -> None:
    size = size_name(viewport)
    page, ws, table, received = open_scripted_table(pages, "em", viewport, f"Bàn gửi {size}")
    dealt(page, ws, table)
    send(ws, table.submitted(1), table.submitted(2), table.submitted(3))
    lay_out(page, LEGAL)
    page.click("#submit")  # legal: no question asked
    page.wait_for_function("document.querySelector('#toast').classList.contains('show')")
    assert len(submits(received)) == 1
    toast = page.locator("#toast").inner_text()
    assert "có thể đổi" not in toast and "Mọi người đã xong" in toast
    # The toast sits clear of the cards and of Xong.
    overlap = page.evaluate(
        """() => {
          const t = document.getElementById('toast').getBoundingClientRect();
          return ['#rows', '#submit'].filter((s) => {
            const r = document.querySelector(s).getBoundingClientRect();
            const apart = t.bottom <= r.top || t.top >= r.bottom;
            return !(apart || t.right <= r.left || t.left >= r.right);
          });
        }"""
    )
    assert overlap == []


def warned(page: Any, outcome: str) -> str:
    page.wait_for_selector(f"#center.urgent[data-outcome={outcome}]")
    return page.locator("#phase-next").inner_text()


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_the_last_ten_seconds_say_what_the_deadline_will_do_with_the_hand(  # type: ignore[no-untyped-def]
    pages, shoot, viewport
) -> None:
    size = size_name(viewport)
    page, ws, table, received = open_scripted_table(pages, "em", viewport, f"Bàn giờ {size}")
    round_ = table.arranging_round(deadline=60)
    send(ws, table.snapshot(round_))
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    assert page.locator("#center.urgent").count() == 0  # a minute left: no warning

    # An untouched hand, 8 s left: the engine will arrange it.
    send(ws, table.snapshot(table.arranging_round(deadline=8)))
    text = warned(page, "engine")
    assert "xếp giúp" in text
    assert re.match(r"Còn \d+ giây!", page.locator("#phase-title").inner_text())
    page.wait_for_function(
        "(document.querySelector('#table-page').dataset.sounds || '').includes('warn')"
    )
    shoot(page, f"phone-deadline-engine-{size}", [viewport])
    on_screen = page.evaluate(REACHABLE, "#phase-next")
    assert on_screen == "ok"

    # Laid out in full (a minute again), then 8 s left: the layout is what will be played.
    send(ws, table.snapshot(table.arranging_round(deadline=60)))
    page.wait_for_selector("#center:not(.urgent)")
    lay_out(page, LEGAL)
    send(ws, table.snapshot(table.arranging_round(deadline=8)))
    assert "đang xếp" in warned(page, "draft")
    page.click("#clear")  # picked up again: the last complete layout (a draft) is played
    assert "hoàn chỉnh" in warned(page, "last_draft")
    assert [d["chi"] for d in received if d.get("type") == "draft"][-1:] == [LEGAL]

    # A strict table: an unsent hand is binh lủng.
    strict = table.snapshot(table.arranging_round(deadline=8))
    strict["info"] = copy.deepcopy(strict["info"])
    strict["info"]["rules"]["on_timeout"] = "foul"
    send(ws, strict)
    assert "binh lủng" in warned(page, "foul")
    shoot(page, f"phone-deadline-strict-{size}", [viewport])


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_suggestions_open_over_the_hand_with_xong_in_reach(  # type: ignore[no-untyped-def]
    pages, shoot, viewport
) -> None:
    size = size_name(viewport)
    page, ws, table, received = open_scripted_table(pages, "em", viewport, f"Bàn gợi ý {size}")
    page.route(
        re.compile(r".*/rounds/\d+/suggest/$"),
        lambda route: route.fulfill(json=SUGGESTIONS),
    )
    # games.rules.arrange is part of the project: Gợi ý is always offered.
    config = page.evaluate("JSON.parse(document.getElementById('table-config').textContent)")
    assert config["can_suggest"]
    dealt(page, ws, table)
    page.click("#suggest")
    page.wait_for_selector("#suggestions button.suggestion")
    # Where the thumb is: the first suggestion, its win % and Xong, all on screen and tappable.
    assert page.evaluate(REACHABLE, "#suggestions button.suggestion") == "ok"
    assert page.evaluate(REACHABLE, "#submit") == "ok"
    assert page.evaluate(REACHABLE, "#suggestions-close") == "ok"
    assert "81%" in page.locator("#suggestions button.suggestion").first.inner_text()
    over_hand = page.evaluate(
        """() => {
          const s = document.getElementById('suggestions').getBoundingClientRect();
          const r = document.getElementById('rows').getBoundingClientRect();
          return s.top < r.bottom && s.bottom > r.top;
        }"""
    )
    assert over_hand
    shoot(page, f"phone-suggestions-{size}", [viewport])
    assert axe_violations(page) == []

    page.locator("#suggestions button.suggestion").first.click()
    page.wait_for_selector("#suggestions", state="hidden")
    laid = page.evaluate(
        "[1, 2, 3].map((n) => [...document.querySelectorAll(`#row-${n}-cards button.pcard`)]"
        ".map((b) => b.dataset.card))"
    )
    assert laid == SUGGESTIONS["suggestions"][0]["chi"]
    assert page.evaluate(REACHABLE, "#submit") == "ok"
    page.click("#submit")  # legal: sent at once
    page.wait_for_function("document.querySelector('#submit').textContent.includes('✓')")
    assert [s["chi"] for s in submits(received)] == [SUGGESTIONS["suggestions"][0]["chi"]]


def played_for(page: Any, stakes_in: str) -> None:
    """Reload the table page as a table played for ``stakes_in`` (a tournament's chips, an
    arena's points): the page names its unit from its config, as the server renders it."""

    def rewrite(route: Any) -> None:
        response = route.fetch()
        body = response.text().replace('"stakes_in": "xu"', f'"stakes_in": "{stakes_in}"')
        route.fulfill(response=response, body=body)

    page.route(re.compile(r".*/tables/\d+/$"), rewrite)
    page.reload()


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_a_hold_reads_as_still_yours_with_what_the_round_can_cost(  # type: ignore[no-untyped-def]
    pages, shoot, viewport
) -> None:
    size = size_name(viewport)
    page, ws, table, _ = open_scripted_table(pages, "em", viewport, f"Bàn giữ {size}")
    # The deal held 540 of my xu: the wallet says 4.600, the seat 4.600 (as the server does).
    send(ws, table.snapshot(table.arranging_round()))
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    header = page.locator("[data-testid=header-balance]").inner_text()
    assert header == "5.140 xu"  # all of it is still mine
    assert page.locator("[data-testid=header-in-play]").inner_text() == "gồm 540 đang giữ"
    assert page.locator("#me .balance").inner_text() == "5.140 xu"
    assert "thua tối đa 540 xu" in page.locator("#me [data-testid=at-risk]").inner_text()
    shoot(page, f"phone-hold-{size}", [viewport])
    # Settled: nothing held any more, the header is the wallet.
    settled = table.snapshot(table.settled_round(my_xu=90))
    settled["seats"][0]["balance"] = 4690  # the wallet, now that the round is paid
    send(ws, settled)
    page.wait_for_selector("#summary:visible")
    assert page.locator("[data-testid=header-balance]").inner_text() == "4.690 xu"
    assert page.locator("[data-testid=header-in-play]").is_hidden()


@pytest.mark.browser
def test_a_tournament_seat_shows_its_stack_and_an_arena_seat_no_chips(pages) -> None:  # type: ignore[no-untyped-def]
    page, ws, table, _ = open_scripted_table(pages, "em", SIZES[1], "Bàn chip")
    played_for(page, "chips")
    ws = reopened(page, ws)
    round_ = table.arranging_round()
    round_["players"][0]["hold"] = 999
    snapshot = table.snapshot(round_)
    snapshot["seats"][0]["balance"] = 1000  # chips are not moved at the deal
    send(ws, snapshot)
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    assert page.locator("#me .balance").inner_text() == "1.000 chip"
    assert "thua tối đa 999 chip" in page.locator("#me [data-testid=at-risk]").inner_text()
    assert "đặt cược" not in page.locator("#felt").inner_text()

    played_for(page, "points")
    ws = reopened(page, ws)
    send(ws, table.snapshot(table.arranging_round()))
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    assert page.locator("#me [data-testid=at-risk]").count() == 0  # a points table holds nothing
    assert "chip" not in page.locator("#felt").inner_text()
