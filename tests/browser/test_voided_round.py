"""A voided round on the table page: the players are told, nobody won or lost, stakes back.

The table's websocket is answered by the test (Playwright's route_web_socket) with the
messages games.consumers sends for a round voided mid-play, then with the snapshot a
reloading page gets.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from games.rules import Rules
from tests.browser.conftest import DESKTOP, SIZES

CARDS = ["AS", "AH", "KS", "KH", "QS", "QH", "9S", "9H", "7D", "7C", "4S", "4H", "2C"]
OTHER = 999_998


def _iso(delta: float = 0) -> str:
    return (datetime.now(UTC) + timedelta(seconds=delta)).isoformat()


def _snapshot(table: int, me: int, version: int, round_: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "snapshot", "table": table, "version": version, "server_now": _iso(),
        "info": {"id": table, "name": "Bàn hủy", "preset": "portal", "stake": 100,
                 "seats": 2, "taken": 2, "free": 0, "state": "playing", "min_balance": 2000,
                 "allow_bots": False, "host": "Em", "version": version, "host_id": me,
                 "rules": Rules.preset("portal").to_dict()},
        "start_at": None,
        "seats": [{"position": 0, "user": me, "name": "Em", "online": True, "balance": 4600},
                  {"position": 1, "user": OTHER, "name": "Bình", "online": True,
                   "balance": 4600}],
        "you": {"user": me, "seated": True},
        "round": round_,
    }  # fmt: skip


def _round(me: int, state: str) -> dict[str, Any]:
    deadline = _iso(60) if state == "arranging" else None
    return {
        "id": 77, "number": 3, "state": state, "deadline": deadline, "revealed": 0,
        "commitment": "ab" * 32, "client_seeds": ["a", "b"],
        "players": [
            {"position": 0, "user": me, "submitted": False, "status": "playing", "hold": 5400},
            {"position": 1, "user": OTHER, "submitted": True, "status": "playing", "hold": 5400},
        ],
        "you": {"position": 0, "cards": CARDS, "arrangement": None, "foul": False,
                "status": "playing"},
    }  # fmt: skip


def _voided(table: int, me: int, version: int, reason: str) -> dict[str, Any]:
    return {
        "type": "voided", "table": table, "version": version, "round": 77, "number": 3,
        "reason": reason, "server_seed": "cd" * 32,
        "players": [{"position": 0, "user": me, "returned": 5400, "balance": 10000},
                    {"position": 1, "user": OTHER, "returned": 5400, "balance": 10000}],
    }  # fmt: skip


@pytest.mark.browser
def test_a_round_voided_mid_play_is_shown_with_every_stake_returned(pages, shoot) -> None:  # type: ignore[no-untyped-def]
    sockets: list[Any] = []
    page = pages.login("em", DESKTOP)
    page.route_web_socket(re.compile(r".*/ws/tables/\d+/$"), lambda ws: sockets.append(ws))
    page.fill("#id_name", "Bàn hủy")
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    config = json.loads(page.locator("#table-config").inner_text())
    table, me = config["table"], config["user"]
    for _ in range(100):
        if sockets:
            break
        page.wait_for_timeout(50)
    assert sockets, "the page opened its websocket"

    sockets[-1].send(json.dumps(_snapshot(table, me, 10, _round(me, "arranging"))))
    page.wait_for_function(
        "document.querySelectorAll('#me button.pcard:not([disabled])').length === 13"
    )
    sockets[-1].send(json.dumps(_voided(table, me, 11, "settlement_failed")))
    page.wait_for_selector("#summary:visible")
    summary = page.locator("#summary").inner_text()
    assert "Ván 3 đã bị hủy" in summary
    assert "không ai thắng hay thua" in summary
    assert "Không thể tính tiền ván này" in summary
    assert "5.400 xu" in summary or "5,400 xu" in summary
    assert "Ván 3 đã bị hủy" in page.locator("main").inner_text()
    shoot(page, "round-voided", SIZES)

    # A page that (re)connects after the void gets it from the snapshot.
    voided_round = {**_round(me, "cancelled"), "voided": _voided(table, me, 11, "staff")}
    sockets[-1].send(json.dumps(_snapshot(table, me, 11, voided_round)))
    page.wait_for_selector("#summary:visible")
    assert "Người kiểm duyệt đã hủy ván này" in page.locator("#summary").inner_text()
