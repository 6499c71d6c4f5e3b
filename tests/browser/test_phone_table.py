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
from tests.browser.test_table_layout import IDS
from tests.support.scripted import MINE, STAKE, open_scripted_table, reopened, send

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
    # The deal's animation starts in the next frame; a tap lands once the cards stand still
    # (a CI run under load lost the first tap of a lay-out made while the cards still moved).
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_function("!document.getElementById('me').getAnimations({subtree: true}).length")


def others_done(page: Any, ws: Any, table: Any) -> None:
    """The bots have sent their hands, and the page shows it before the test taps on."""
    send(ws, table.submitted(1), table.submitted(2), table.submitted(3))
    page.wait_for_function("document.querySelectorAll('.badge.status-done').length === 3")


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
    others_done(page, ws, table)
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
    others_done(page, ws, table)
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


HAND_TOP = "document.querySelector('#me').getBoundingClientRect().top + window.scrollY"


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_the_deadline_warning_moves_no_card_on_the_screen(  # type: ignore[no-untyped-def]
    pages, viewport
) -> None:
    size = size_name(viewport)
    page, ws, table, _ = open_scripted_table(pages, "em", viewport, f"Bàn yên {size}")
    send(ws, table.snapshot(table.arranging_round(deadline=60)))
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    top = page.evaluate(HAND_TOP)
    # The last 10 s start: the centre says so in more words, in place.
    send(ws, table.snapshot(table.arranging_round(deadline=8)))
    warned(page, "engine")
    assert abs(page.evaluate(HAND_TOP) - top) <= 1, size
    # A strict table's warning, the longest words: still nothing moves.
    strict = table.snapshot(table.arranging_round(deadline=8))
    strict["info"] = copy.deepcopy(strict["info"])
    strict["info"]["rules"]["on_timeout"] = "foul"
    send(ws, strict)
    warned(page, "foul")
    assert abs(page.evaluate(HAND_TOP) - top) <= 1, size
    # Laid out in full with a minute left, then the last 10 s: the layout will be played.
    send(ws, table.snapshot(table.arranging_round(deadline=60)))
    page.wait_for_selector("#center:not(.urgent)")
    lay_out(page, LEGAL)
    top = page.evaluate(HAND_TOP)  # the rows filled by my taps may have moved it
    send(ws, table.snapshot(table.arranging_round(deadline=8)))
    warned(page, "draft")
    assert abs(page.evaluate(HAND_TOP) - top) <= 1, size


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


def chi_pair(a: int, b: int, detail: list[tuple[int | None, int, str | None, str]],
             scoop: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """A settlement pair (docs/rules.md "Settlement"): per chi (winner, units from a's
    side, bonus, reason), the scoop's multiplier applied to the whole pair."""
    units = sum(u for _w, u, _b, _r in detail) * (scoop["x"] if scoop else 1)
    return {
        "a": str(a), "b": str(b), "kind": "chi", "chi": [u for _w, u, _b, _r in detail],
        "scoop": scoop, "units": units, "xu": units * STAKE, "capped": False,
        "chi_detail": [
            {"winner": None if w is None else str(w), "units": u, "bonus": bonus, "reason": r}
            for w, u, bonus, r in detail
        ],
    }  # fmt: skip


def four_player_settlement(table: Any) -> dict[str, Any]:
    """I (seat 0) win chi 1 and 2 from Máy Một, scoop Nguyễn… (sập 3 chi, ×1 in portal,
    with a full house bonus in chi 2) and break even with Máy Ba (a tie, a loss, a win)."""
    won, lost, tie = ("compare", "compare", "tie")
    pairs = [
        chi_pair(0, 1, [(0, 1, None, won), (0, 1, None, won), (1, -1, None, lost)]),
        chi_pair(
            0, 2, [(0, 1, None, won), (0, 2, "full_house_chi2", won), (0, 1, None, won)],
            scoop={"loser": "2", "kind": "one", "x": 1},
        ),
        chi_pair(0, 3, [(None, 0, None, tie), (3, -1, None, lost), (0, 1, None, won)]),
        chi_pair(1, 2, [(1, 1, None, won), (2, -1, None, lost), (1, 1, None, won)]),
        chi_pair(1, 3, [(3, -1, None, lost), (3, -1, None, lost), (1, 1, None, won)]),
        chi_pair(2, 3, [(3, -1, None, lost), (2, 1, None, won), (3, -1, None, lost)]),
    ]  # fmt: skip
    round_ = table.settled_round(my_xu=50)
    summary = round_["summary"]
    summary["pairs"] = pairs
    summary["scoops"] = [{"loser": 2, "kind": "one", "x": 1, "by": [0], "xu": 0}]
    totals = dict.fromkeys(range(4), 0)
    for pair in pairs:
        totals[int(pair["a"])] += pair["xu"]
        totals[int(pair["b"])] -= pair["xu"]
    for row in summary["players"]:
        row["xu"] = totals[row["position"]]
        row["scooped"] = "one" if row["position"] == 2 else None
    return round_


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_the_summary_breaks_the_result_down_per_opponent_and_says_why_a_scoop_counts(  # type: ignore[no-untyped-def]
    pages, shoot, viewport
) -> None:
    size = size_name(viewport)
    page, ws, table, received = open_scripted_table(pages, "em", viewport, f"Bàn tổng {size}")
    round_ = four_player_settlement(table)
    send(ws, table.snapshot(round_, start_at=None), table.countdown(30))
    page.wait_for_selector("[data-testid=versus] li")
    lines = page.locator("[data-testid=versus] li.versus-line")
    assert lines.count() == 3  # one per opponent
    totals = [int(lines.nth(i).get_attribute("data-total")) for i in range(3)]
    assert sum(totals) == 50 == int(page.locator("#summary tr.is-you").get_attribute("data-xu"))
    scooped = page.locator("[data-testid=versus] li[data-opponent='2']").inner_text()
    assert "Chi 2 +20 (Cù lũ chi giữa ×2)" in scooped
    assert "sập 3 chi ×1" in scooped
    assert "không nhân thêm" in scooped  # why ×1 adds nothing here, in words
    assert "hòa" in page.locator("[data-testid=versus] li[data-opponent='3']").inner_text()
    assert "sập 3 chi ×1" in page.locator("#summary tbody").inner_text()
    # The countdown to the next deal is on the summary, and Ready asks for it now.
    page.wait_for_function(
        "/bắt đầu sau \\d+ giây/.test(document.getElementById('summary-next').textContent)"
    )
    assert page.evaluate(REACHABLE, "#ready-button") in ("ok", "off screen")
    page.locator("#ready-button").scroll_into_view_if_needed()
    assert page.evaluate(REACHABLE, "#ready-button") == "ok"
    assert page.locator("#wait-button").count() == 0  # a public table: no waiting for one
    shoot(page, f"phone-summary-{size}", [viewport])
    assert axe_violations(page) == []
    # No column of the summary is cut off (the rating included).
    clipped = page.evaluate(
        """() => {
          const box = document.querySelector('#summary .table-scroll');
          const page = document.documentElement.scrollWidth > innerWidth;
          return page || box.scrollWidth > box.clientWidth + 1;
        }"""
    )
    assert not clipped
    page.click("#ready-button")
    for _ in range(50):
        if any(m.get("type") == "ready" for m in received):
            break
        page.wait_for_timeout(50)
    assert next(m for m in received if m.get("type") == "ready")["round"] == table.round_id


@pytest.mark.browser
def test_heads_up_a_scoop_is_sap_lang_and_the_summary_says_so(pages) -> None:  # type: ignore[no-untyped-def]
    page, ws, table, _ = open_scripted_table(pages, "em", SIZES[1], "Bàn hai người")
    table.others = table.others[:1]
    round_ = table.settled_round(my_xu=90)
    pair = chi_pair(
        0, 1, [(0, 1, None, "compare")] * 3, scoop={"loser": "1", "kind": "all", "x": 3}
    )
    round_["summary"]["pairs"] = [pair]
    round_["summary"]["scoops"] = [{"loser": 1, "kind": "all", "x": 3, "by": [0], "xu": 60}]
    send(ws, table.snapshot(round_))
    page.wait_for_selector("[data-testid=versus] li")
    text = page.locator("[data-testid=versus] li").inner_text()
    assert "+90 xu" in text and "sập làng ×3 +60" in text
    assert "đối thủ duy nhất" in text  # one opponent lost to is every opponent


@pytest.mark.browser
def test_at_a_private_table_a_player_may_ask_the_table_to_wait(pages) -> None:  # type: ignore[no-untyped-def]
    page, ws, table, received = open_scripted_table(pages, "em", SIZES[1], "Bàn riêng chờ")
    snap = table.snapshot(table.settled_round(), start_at=None)
    snap["info"]["private"] = True
    send(ws, snap, table.countdown(12))
    page.wait_for_selector("#wait-button")
    page.click("#wait-button")
    for _ in range(50):
        if any(m.get("type") == "wait" for m in received):
            break
        page.wait_for_timeout(50)
    assert [m["round"] for m in received if m.get("type") == "wait"] == [table.round_id]
    # The server's answer: the deal later, and who asked (the button is gone for me).
    later = table.countdown(30)
    later["between"] = {"round": table.round_id, "ready": [], "waited": [table.me]}
    send(ws, later)
    page.wait_for_selector("#wait-button", state="detached")
    assert "bạn" in page.locator("#between-who").inner_text()


# For each opponent's revealed chi: where its hand name sits against its own cards ("below"
# or "right"), and whether the name stays inside its own chi's box.
NAME_PLACES = """
() => [...document.querySelectorAll('#opponents .seat')].map((seat) =>
  [...seat.querySelectorAll('.mini-row')].map((row) => {
    const cards = row.querySelector('.mini-cards').getBoundingClientRect();
    const name = row.querySelector('.hand-name');
    if (!name) return 'no name';
    const n = name.getBoundingClientRect();
    const r = row.getBoundingClientRect();
    const inside = n.top >= r.top - 0.5 && n.bottom <= r.bottom + 0.5;
    if (!inside) return 'outside';
    if (n.top >= cards.bottom - 1) return 'below';
    if (n.left >= cards.right - 1) return 'right';
    return 'overlap';
  }))
"""


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_each_opponents_hand_name_sits_with_its_own_cards(pages, shoot, viewport) -> None:  # type: ignore[no-untyped-def]
    size = size_name(viewport)
    page, ws, table, _ = open_scripted_table(pages, "em", viewport, f"Bàn tên {size}")
    round_ = table.arranging_round()
    round_.update(state="showdown", revealed=3)
    round_["you"]["arrangement"] = LEGAL
    round_["reveal"] = table.reveal(3)
    send(ws, table.snapshot(round_))
    page.wait_for_function(
        "document.querySelectorAll('#opponents .mini-row .hand-name').length === 9"
    )
    places = page.evaluate(NAME_PLACES)
    assert len(places) == 3
    for seat in places:
        assert len(set(seat)) == 1, places  # the same place for chi 1, 2 and 3
        assert seat[0] in ("below", "right"), places
    gaps = page.evaluate(
        """() => [...document.querySelectorAll('#opponents .seat')].map((seat) => {
          const rows = [...seat.querySelectorAll('.mini-row')]
            .map((r) => r.getBoundingClientRect());
          return Math.min(...rows.slice(1).map((r, i) => r.top - rows[i].bottom));
        })"""
    )
    assert min(gaps) >= 3, gaps  # each chi is a box of its own, apart from the next
    # A name is nearer its own cards than the next chi's: it never reads as their label.
    distances = page.evaluate(
        """() => [...document.querySelectorAll('#opponents .seat')].flatMap((seat) => {
          const rows = [...seat.querySelectorAll('.mini-row')];
          return rows.slice(0, -1).map((row, i) => {
            const own = row.querySelector('.mini-cards').getBoundingClientRect();
            const name = row.querySelector('.hand-name').getBoundingClientRect();
            const next = rows[i + 1].querySelector('.mini-cards').getBoundingClientRect();
            const mine = Math.max(0, name.top - own.bottom, own.top - name.bottom);
            return [mine, next.top - name.bottom];
          });
        })"""
    )
    for own, following in distances:
        assert following >= 2 * own + 4, distances
    shoot(page, f"phone-showdown-names-{size}", [viewport])


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_the_showdown_shows_each_chi_on_the_seats_with_coins_between_them(  # type: ignore[no-untyped-def]
    pages, shoot, viewport
) -> None:
    size = size_name(viewport)
    page, ws, table, _ = open_scripted_table(pages, "em", viewport, f"Bàn so {size}")
    round_ = table.arranging_round()
    round_["you"]["arrangement"] = LEGAL
    send(ws, table.snapshot(round_))
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    send(ws, table.reveal(1))
    page.wait_for_selector("#opponents .pair-chip[data-chi='1']")
    chips = page.eval_on_selector_all(
        "#opponents .pair-chip", "cs => cs.map((c) => Number(c.dataset.xu))"
    )
    # I won chi 1 from each of the three (the scripted pairs): −10 on each of their seats,
    # the same numbers as the pair list, and what my row says I won.
    assert chips == [-STAKE] * 3
    assert page.locator("#row-1-result").inner_text() == f"+{3 * STAKE} xu"
    page.wait_for_selector(".coin", state="attached")  # xu move between the seats
    shoot(page, f"phone-showdown-chi1-{size}", [viewport])
    reveal = table.reveal(3)
    reveal["scoops"] = [{"loser": 3, "kind": "one", "x": 1, "by": [0], "xu": 0}]
    send(ws, table.reveal(2), reveal)
    page.wait_for_selector("#moment:visible")
    assert page.locator("#moment").inner_text().startswith("Sập 3 chi!")
    shoot(page, f"phone-showdown-moment-{size}", [viewport])


@pytest.mark.browser
def test_under_reduced_motion_the_showdown_is_calm_and_says_the_same(pages) -> None:  # type: ignore[no-untyped-def]
    page, ws, table, _ = open_scripted_table(pages, "em", SIZES[1], "Bàn êm")
    page.emulate_media(reduced_motion="reduce")
    round_ = table.arranging_round()
    round_["you"]["arrangement"] = LEGAL
    send(ws, table.snapshot(round_), table.reveal(1))
    page.wait_for_selector("#opponents .pair-chip[data-chi='1']")
    assert page.locator(".coin").count() == 0
    reveal = table.reveal(2)
    send(ws, reveal)
    page.wait_for_selector("#opponents .pair-chip[data-chi='2']")
    assert page.locator(".coin").count() == 0


# Each shift with what moved, from where to where, when, and the page's state then (its
# height, its width inside any scrollbar, the table's loading state): a failure names its
# mechanism.
LAYOUT_SHIFTS = """
window.__shifts = [];
const box = (r) => r ? [r.x, r.y, r.width, r.height].map(Math.round) : null;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    const page = document.getElementById('table-page');
    window.__shifts.push({value: e.value, at: Math.round(e.startTime), sources: (e.sources || [])
      .map((s) => [s.node && s.node.nodeType === 1 ? (s.node.id || s.node.className) : '',
                   box(s.previousRect), box(s.currentRect)]),
      page: [document.documentElement.scrollHeight, document.documentElement.clientWidth,
             page ? page.dataset.state : null]});
  }
}).observe({type: 'layout-shift', buffered: true});
"""


@pytest.mark.browser
def test_the_lobby_and_the_table_do_not_move_while_they_load_on_a_slow_phone(pages) -> None:  # type: ignore[no-untyped-def]
    # Lighthouse counted 0.27 of layout shift on every logged-in page: the header's menu
    # folding once its script ran, the table's parts arriving with the first snapshot.
    page, ws, table, _ = open_scripted_table(pages, "em", SIZES[1], "Bàn không xê dịch")
    page.context.add_init_script(LAYOUT_SHIFTS)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    table_url = page.url
    page.goto(pages.site.url + "/lobby/")
    page.wait_for_selector("#quick-play")
    page.wait_for_timeout(500)  # time for anything late to move (nothing may)
    shifts = page.evaluate("window.__shifts")
    assert sum(s["value"] for s in shifts) < 0.01, ("lobby", shifts)

    page.goto(table_url)
    ws = reopened(page, ws)
    send(ws, table.snapshot(table.arranging_round()), table.chat_state())
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    page.wait_for_timeout(500)
    shifts = page.evaluate("window.__shifts")
    assert sum(s["value"] for s in shifts) < 0.01, ("table", shifts)


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_a_wait_for_bots_is_counted_down_where_the_player_sits(pages, shoot, viewport) -> None:  # type: ignore[no-untyped-def]
    # Issue 25 item 10: wherever a wait remains, a countdown is visible (here: alone at a
    # table that lets bots in, until they take the free seats).
    from tests.support.scripted import iso

    size = size_name(viewport)
    page, ws, table, _ = open_scripted_table(pages, "em", viewport, f"Bàn chờ máy {size}")
    table.others = []
    snapshot = table.snapshot(None)
    snapshot["info"].update(allow_bots=True, bot_wait_seconds=8, bots_at=iso(8), taken=1, free=3)
    send(ws, snapshot)
    page.wait_for_function(
        "/sau \\d+ giây/.test(document.getElementById('phase-next').textContent)"
    )
    assert "Máy" in page.locator("#phase-next").inner_text()
    assert page.locator("#clock").is_visible()
    assert 1 <= int(page.locator("#clock-text").inner_text()) <= 8
    assert page.evaluate(REACHABLE, "#clock") == "ok"
    shoot(page, f"phone-bots-wait-{size}", [viewport])
