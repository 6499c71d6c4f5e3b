"""The table page against a scripted server: the mậu binh path, and the automatic send
when the time is nearly up.

The deal is random on the real server, so these tests answer the table's websocket
themselves (Playwright's route_web_socket) with the messages games.consumers would send.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from games.rules import Rules
from tests.browser.conftest import DESKTOP, PHONE

SIX_PAIRS = ["AS", "AH", "KS", "KH", "QS", "QH", "9S", "9H", "7D", "7C", "4S", "4H", "2C"]
OTHER = ["KD", "QD", "JD", "TD", "8D", "8S", "6S", "5S", "3S", "JS", "JH", "6H", "3C"]
BOT = 999_999
SKEW = 3600  # the server's clock runs an hour ahead of the browser's: countdowns still hold


# The clock a test lays 13 cards out against: 17 taps take 1-2 s on a quiet machine and
# more than 6 s under the whole suite's load (a CI run at load average 12 timed out waiting
# for a clock that had already passed 2). What the page does near the end is then waited for
# as "at most N seconds left", never as one exact second that a busy tab can skip.
LAY_OUT_SECONDS = 15
CLOCK_AT_MOST = "() => Number(document.querySelector('#clock-text').textContent) <= {}"


def _iso(delta: float = 0) -> str:
    return (datetime.now(UTC) + timedelta(seconds=SKEW + delta)).isoformat()


def _hand(cards: list[str], vi: str, en: str, category: str) -> dict[str, Any]:
    return {"category": category, "name_vi": vi, "name_en": en, "cards": cards}


def _script(table: int, me: int, name: str) -> list[dict[str, Any]]:
    """Snapshot (arranging), then reveal 0 (mậu binh), chi 1..3 and the settlement."""
    rules = Rules.preset("portal").to_dict()
    players = [
        {"position": 0, "user": me, "submitted": False, "status": "playing", "hold": 5400},
        {"position": 1, "user": BOT, "submitted": True, "status": "playing", "hold": 5400},
    ]
    snapshot = {
        "type": "snapshot", "table": table, "version": 10, "server_now": _iso(),
        "info": {"id": table, "name": "Bàn mậu binh", "preset": "portal", "stake": 100,
                 "seats": 2, "taken": 2, "free": 0, "state": "playing", "min_balance": 2000,
                 "allow_bots": True, "host": name, "version": 10, "host_id": me, "rules": rules},
        "start_at": None,
        "seats": [{"position": 0, "user": me, "name": name, "online": True, "balance": 4600},
                  {"position": 1, "user": BOT, "name": "Máy", "online": True, "balance": 4600}],
        "you": {"user": me, "seated": True},
        "round": {"id": 77, "number": 1, "state": "arranging", "deadline": _iso(60),
                  "revealed": 0, "commitment": "ab" * 32, "client_seeds": ["a", "b"],
                  "players": players,
                  "you": {"position": 0, "cards": SIX_PAIRS, "arrangement": None,
                          "foul": False, "status": "playing"}},
    }  # fmt: skip
    other = [
        _hand(OTHER[:5], "Thùng", "Flush", "flush"),
        _hand(OTHER[5:10], "Đôi", "Pair", "pair"),
        _hand(OTHER[10:], "Mậu thầu", "High card", "high_card"),
    ]
    base = {
        "type": "reveal", "table": table, "round": 77, "fouls": [], "unarranged": [0],
        "instants": [{"position": 0, "kind": "six_pairs", "name_vi": "Lục phé bôn",
                      "name_en": "Six pairs", "cards": SIX_PAIRS}],
        "instant_pairs": [{"a": 0, "b": 1, "units": 3, "xu": 300, "winner": 0}],
    }  # fmt: skip
    reveals = []
    for revealed in range(4):
        chi = [
            {"chi": i + 1, "pairs": [],
             "hands": [{"position": 0, "hand": None, "foul": False},
                       {"position": 1, "hand": other[i], "foul": False}]}
            for i in range(revealed)
        ]  # fmt: skip
        reveals.append(
            {**base, "version": 11 + revealed, "revealed": revealed, "deadline": _iso(2),
             "chi": chi}
        )  # fmt: skip
    settled = {
        "type": "settled", "table": table, "version": 15, "round": 77, "number": 1,
        "players": [
            {"position": 0, "user": me, "name": name, "units": 3, "xu": 300, "chi_won": 0,
             "chi_lost": 0, "scooped": None, "foul": False, "instant": "six_pairs",
             "hands": None, "status": "playing", "balance": 10300},
            {"position": 1, "user": BOT, "name": "Máy", "units": -3, "xu": -300, "chi_won": 0,
             "chi_lost": 0, "scooped": None, "foul": False, "instant": None, "hands": None,
             "status": "playing", "balance": 9700},
        ],
        "pairs": [{"a": "0", "b": "1", "kind": "instant", "units": 3, "xu": 300,
                   "scoop": None, "chi": None}],
        "server_seed": "cd" * 32, "commitment": "ab" * 32, "client_seeds": ["a", "b"],
    }  # fmt: skip
    return [snapshot, *reveals, settled]


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["laptop", "phone"])
def test_mau_binh_is_announced_then_shown_and_settled_first(pages, shoot, viewport) -> None:  # type: ignore[no-untyped-def]
    sockets: list[Any] = []
    page = pages.login("em", viewport)
    page.route_web_socket(re.compile(r".*/ws/tables/\d+/$"), lambda ws: sockets.append(ws))
    page.fill("#id_name", f"Bàn mậu binh {viewport['width']}")
    page.uncheck("#id_sit_down")  # the socket is scripted: nobody needs a real seat
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    config = json.loads(page.locator("#table-config").inner_text())
    snapshot, *reveals, settled = _script(config["table"], config["user"], "Em")
    for _ in range(100):
        if sockets:
            break
        page.wait_for_timeout(50)
    assert sockets, "the page opened its websocket"
    ws = sockets[-1]

    ws.send(json.dumps(snapshot))
    page.wait_for_selector("#instant-banner:visible")
    assert 50 <= int(page.locator("#clock-text").inner_text()) <= 60  # the server's 60 s
    assert "Lục phé bôn" in page.locator("#instant-banner").inner_text()
    shoot(page, "instant-arranging")

    ws.send(json.dumps(reveals[0]))
    page.wait_for_selector("#steps li.current:text-is('Mậu binh')")
    stage = page.locator("#stage").inner_text()
    assert "Lục phé bôn" in stage
    assert "300 xu" in stage
    shoot(page, "showdown-instant")
    for reveal in reveals[1:]:
        ws.send(json.dumps(reveal))
    page.wait_for_selector("#steps li.current:text-is('Chi 3')")
    assert page.locator(".seat .mini-row").first.is_visible()
    ws.send(json.dumps(settled))
    page.wait_for_selector("#summary:visible")
    assert page.locator("#summary tr.is-you").get_attribute("data-xu") == "300"
    assert "Lục phé bôn" in page.locator("#summary").inner_text()
    shoot(page, "summary-instant")


def _recorded_table(pages: Any, name: str) -> tuple[Any, Any, list[dict[str, Any]], dict[str, Any]]:
    """em's page at a new table whose socket only records what the page sends (parsed), and
    the round's snapshot from ``_script``, for the test to change and send."""
    sockets: list[Any] = []
    received: list[dict[str, Any]] = []

    def answer(ws: Any) -> None:
        sockets.append(ws)
        ws.on_message(lambda message: received.append(json.loads(message)))

    page = pages.login("em", DESKTOP)
    page.route_web_socket(re.compile(r".*/ws/tables/\d+/$"), answer)
    page.fill("#id_name", name)
    page.uncheck("#id_sit_down")
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    config = json.loads(page.locator("#table-config").inner_text())
    for _ in range(100):
        if sockets:
            break
        page.wait_for_timeout(50)
    return page, sockets[-1], received, _script(config["table"], config["user"], "Em")[0]


@pytest.mark.browser
def test_a_complete_layout_is_sent_as_a_draft_and_never_submitted_for_you(pages) -> None:  # type: ignore[no-untyped-def]
    # docs/rules.md#timing: the server plays the last complete draft at the deadline, so the
    # page sends drafts (throttled) and presses Done for nobody who has not sent anything.
    page, ws, received, snapshot = _recorded_table(pages, "Bàn hết giờ")
    snapshot["round"]["you"]["cards"] = OTHER
    snapshot["round"]["deadline"] = _iso(LAY_OUT_SECONDS)
    ws.send(json.dumps(snapshot))
    for row, cards in (("1", OTHER[:5]), ("2", OTHER[5:10]), ("3", OTHER[10:])):
        for code in cards:
            page.locator(f'#me button.pcard[data-card="{code}"]').click()
        page.click(f"#row-{row}-button")
    assert page.locator("#submit").is_enabled()  # not pressed
    page.wait_for_function(CLOCK_AT_MOST.format(1))
    page.wait_for_timeout(300)
    drafts = [m for m in received if m.get("type") == "draft"]
    assert drafts, "the complete layout was sent as a draft"
    assert drafts[-1]["chi"] == [OTHER[:5], OTHER[5:10], OTHER[10:]]
    assert drafts[-1]["round"] == 77 and drafts[-1]["ref"] == "draft"
    assert len(drafts) <= 2  # throttled: one move after another does not flood the socket
    assert not [m for m in received if m.get("type") == "submit"]


@pytest.mark.browser
def test_a_sent_arrangement_changed_since_is_sent_again_when_time_is_nearly_up(pages) -> None:  # type: ignore[no-untyped-def]
    page, ws, received, snapshot = _recorded_table(pages, "Bàn gửi lại")
    sent = [OTHER[:5], OTHER[5:10], OTHER[10:]]
    snapshot["round"]["you"].update(cards=OTHER, arrangement=sent, draft=sent)
    snapshot["round"]["players"][0]["submitted"] = True
    snapshot["round"]["deadline"] = _iso(LAY_OUT_SECONDS)
    ws.send(json.dumps(snapshot))
    page.wait_for_selector("#row-3-cards button.pcard")
    page.click("#clear")  # laid out again in another order: a change to send
    for row, cards in (("1", OTHER[:5]), ("2", OTHER[5:10]), ("3", OTHER[10:])):
        for code in reversed(cards):
            page.locator(f'#me button.pcard[data-card="{code}"]').click()
        page.click(f"#row-{row}-button")
    assert page.locator("#submit").inner_text() != "Đã gửi ✓"
    page.wait_for_function(CLOCK_AT_MOST.format(2))
    for _ in range(60):
        if any(m.get("type") == "submit" for m in received):
            break
        page.wait_for_timeout(100)
    submits = [m for m in received if m.get("type") == "submit"]
    assert len(submits) == 1
    assert [sorted(part) for part in submits[0]["chi"]] == [sorted(part) for part in sent]
    assert submits[0]["round"] == 77
