"""A scripted table server for browser tests of the table page's layout and states.

The deal is random on the real server, so these tests answer the table's websocket
themselves (Playwright's route_web_socket) with the messages games.consumers sends: a
four-seat table, the player at seat 0 and three bots (one with a very long name).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from games.rules import Rules

MINE = ["AS", "AH", "KS", "KD", "QC", "JH", "9D", "8S", "7C", "6H", "5D", "3S", "2H"]
BOTS = [
    ["KC", "QD", "JD", "TD", "8D", "8H", "6S", "5S", "3H", "JS", "JC", "6C", "3C"],
    ["AD", "AC", "KH", "QH", "QS", "TH", "TS", "9C", "9H", "7D", "5C", "4D", "2S"],
    ["TC", "9S", "8C", "7H", "7S", "6D", "5H", "4H", "4S", "4C", "3D", "2C", "2D"],
]
BOT_USERS = [900_001, 900_002, 900_003]
BOT_NAMES = ["Máy Một", "Nguyễn Thị Phương Thảo Quỳnh Như Một Cái Tên Rất Dài", "Máy Ba"]
STAKE = 10
SKEW = 3600  # the server's clock runs an hour ahead of the browser's


def iso(delta: float = 0) -> str:
    return (datetime.now(UTC) + timedelta(seconds=SKEW + delta)).isoformat()


def hand(cards: list[str], vi: str, en: str) -> dict[str, Any]:
    return {"category": "x", "name_vi": vi, "name_en": en, "cards": cards}


def split(cards: list[str]) -> list[list[str]]:
    return [cards[:5], cards[5:10], cards[10:]]


@dataclass
class Table:
    """The messages of one scripted table for the player ``me`` named ``name``."""

    table: int
    me: int
    name: str
    version: int = 10
    round_id: int = 77
    number: int = 1
    seated: bool = True
    others: list[int] = field(default_factory=lambda: list(BOT_USERS))

    def _next(self) -> int:
        self.version += 1
        return self.version

    def seats(self, me_seated: bool = True, balance: int = 4600) -> list[dict[str, Any]]:
        rows = []
        if me_seated:
            rows.append(
                {"position": 0, "user": self.me, "name": self.name, "online": True,
                 "balance": balance, "is_bot": False}
            )  # fmt: skip
        for i, user in enumerate(self.others):
            rows.append(
                {"position": i + 1, "user": user, "name": BOT_NAMES[i], "online": True,
                 "balance": 4600, "is_bot": True, "difficulty": "normal"}
            )  # fmt: skip
        return rows

    def players(self, with_me: bool = True) -> list[dict[str, Any]]:
        rows = []
        if with_me:
            rows.append({"position": 0, "user": self.me, "submitted": False,
                         "status": "playing", "hold": 540})  # fmt: skip
        for i, user in enumerate(self.others):
            rows.append({"position": i + 1, "user": user, "submitted": False,
                         "status": "playing", "hold": 540})  # fmt: skip
        return rows

    def info(self) -> dict[str, Any]:
        return {
            "id": self.table, "name": "Bàn thử", "preset": "portal", "stake": STAKE,
            "seats": 4, "taken": 4, "free": 0, "state": "playing", "min_balance": 200,
            "allow_bots": True, "host": "Máy Một", "version": self.version,
            "host_id": BOT_USERS[0], "rules": Rules.preset("portal").to_dict(),
        }  # fmt: skip

    def snapshot(self, round_: dict[str, Any] | None, *, seated: bool = True,
                 start_at: str | None = None) -> dict[str, Any]:  # fmt: skip
        return {
            "type": "snapshot", "table": self.table, "version": self.version,
            "server_now": iso(), "info": self.info(), "start_at": start_at,
            "seats": self.seats(seated), "you": {"user": self.me, "seated": seated},
            "round": round_,
        }  # fmt: skip

    def arranging_round(self, with_me: bool = True, deadline: float = 80) -> dict[str, Any]:
        return {
            "id": self.round_id, "number": self.number, "state": "arranging",
            "deadline": iso(deadline), "revealed": 0, "commitment": "ab" * 32,
            "client_seeds": [], "players": self.players(with_me),
            "you": {"position": 0, "cards": MINE, "arrangement": None, "foul": False,
                    "status": "playing"} if with_me else None,
        }  # fmt: skip

    def round_started(self, deadline: float = 80) -> list[dict[str, Any]]:
        """The deal: the public event and my private cards."""
        version = self._next()
        players = [{k: p[k] for k in ("position", "user", "hold")} for p in self.players()]
        return [
            {"type": "round_started", "table": self.table, "version": version,
             "round": self.round_id, "number": self.number, "deadline": iso(deadline),
             "commitment": "ab" * 32, "client_seeds": [], "players": players},
            {"type": "cards", "table": self.table, "version": version,
             "round": self.round_id, "cards": MINE},
        ]  # fmt: skip

    def submitted(self, position: int) -> dict[str, Any]:
        return {"type": "submitted", "table": self.table, "version": self._next(),
                "round": self.round_id, "position": position}  # fmt: skip

    def reveal(self, revealed: int, with_me: bool = True) -> dict[str, Any]:
        hands_by_position = {i + 1: split(cards) for i, cards in enumerate(BOTS)}
        if with_me:
            hands_by_position[0] = [MINE[:5], MINE[5:10], MINE[10:]]
        names = [("Đôi", "Pair"), ("Mậu thầu", "High card"), ("Mậu thầu", "High card")]
        chi = []
        for i in range(revealed):
            positions = sorted(hands_by_position)
            pairs = []
            for a_index, a in enumerate(positions):
                for b in positions[a_index + 1 :]:
                    pairs.append({"a": a, "b": b, "winner": a, "xu": STAKE,
                                  "units": 1, "reason": None, "bonus": None})  # fmt: skip
            chi.append({
                "chi": i + 1, "pairs": pairs,
                "hands": [{"position": p, "hand": hand(hands_by_position[p][i], *names[i]),
                           "foul": False} for p in positions],
            })  # fmt: skip
        return {
            "type": "reveal", "table": self.table, "version": self._next(),
            "round": self.round_id, "revealed": revealed, "deadline": iso(3),
            "fouls": [], "unarranged": [], "instants": [], "instant_pairs": [], "chi": chi,
        }  # fmt: skip

    def settled(self, with_me: bool = True, my_xu: int = 90) -> dict[str, Any]:
        rows = []
        users = ([(0, self.me, self.name)] if with_me else []) + [
            (i + 1, user, BOT_NAMES[i]) for i, user in enumerate(self.others)
        ]
        for position, user, name in users:
            xu = my_xu if user == self.me else -30
            rows.append({
                "position": position, "user": user, "name": name, "units": xu // STAKE,
                "xu": xu, "chi_won": 3 if xu > 0 else 0, "chi_lost": 0 if xu > 0 else 3,
                "scooped": None, "foul": False, "instant": None, "hands": None,
                "status": "playing", "balance": 4600 + xu,
            })  # fmt: skip
        return {
            "type": "settled", "table": self.table, "version": self._next(),
            "round": self.round_id, "number": self.number, "players": rows, "pairs": [],
            "server_seed": "cd" * 32, "commitment": "ab" * 32, "client_seeds": [],
        }  # fmt: skip

    def settled_round(self, with_me: bool = True, my_xu: int = 90) -> dict[str, Any]:
        """A finished round as a snapshot shows it."""
        round_ = self.arranging_round(with_me)
        round_.update(state="settled", deadline=None, revealed=3)
        if with_me:
            round_["you"]["arrangement"] = split(MINE)
        round_["reveal"] = self.reveal(3, with_me)
        round_["summary"] = self.settled(with_me, my_xu)
        return round_

    def countdown(self, seconds: float) -> dict[str, Any]:
        return {"type": "countdown", "table": self.table, "version": self._next(),
                "start_at": iso(seconds)}  # fmt: skip

    def chat_state(self) -> dict[str, Any]:
        """The table talk a socket gets after its snapshot: a few lines, phrases, reactions."""
        history = [
            {"type": "chat_message", "id": n + 1, "channel": "players", "user": 900 + n % 2,
             "name": BOT_NAMES[n % 2], "text": text, "phrase": None, "at": iso(-60 + n)}
            for n, text in enumerate(["Chào cả bàn", "Chơi nhanh lên nào", "Ván này khó quá"])
        ]  # fmt: skip
        return {
            "type": "chat_state", "settings": {"spectators": "read", "word_filter": True},
            "host": True, "private": False, "post": ["players"],
            "phrases": [{"id": "hello", "text": "Chào cả nhà!"},
                        {"id": "thanks", "text": "Cảm ơn!"}],
            "reactions": [{"id": "laugh", "emoji": "😂"}, {"id": "heart", "emoji": "❤️"}],
            "max_length": 200, "muted": [], "history": history,
        }  # fmt: skip


FONT_LOADED = """() => document.fonts.status === 'loaded' && [...document.fonts]
  .some((f) => f.family.includes('Be Vietnam Pro') && f.status === 'loaded')"""
"""The site's font (static/fonts/be-vietnam-pro) has arrived and nothing else is loading."""

SOCKETS: dict[int, list[Any]] = {}
"""Every scripted socket a page opened (by ``id(page)``), the latest last."""


def reopened(page: Any, before: Any) -> Any:
    """The socket the page opens after ``before`` (a reload, a reconnect)."""
    sockets = SOCKETS[id(page)]
    for _ in range(200):
        if sockets and sockets[-1] is not before:
            return sockets[-1]
        page.wait_for_timeout(50)
    raise AssertionError("the page opened no new websocket")


def open_scripted_table(pages: Any, username: str, viewport: dict[str, int],
                        name: str) -> tuple[Any, Any, Table, list[dict[str, Any]]]:  # fmt: skip
    """A logged-in page at a new table whose websocket the test answers."""
    sockets: list[Any] = []
    received: list[dict[str, Any]] = []

    def answer(ws: Any) -> None:
        sockets.append(ws)

        def reply(raw: str) -> None:
            message = json.loads(raw)
            received.append(message)
            if message.get("ref") is not None:  # a request: the server says ok
                ws.send(json.dumps({"type": "ok", "ref": message["ref"]}))

        ws.on_message(reply)

    page = pages.login(username, viewport)
    SOCKETS[id(page)] = sockets
    page.route_web_socket(re.compile(r".*/ws/tables/\d+/$"), answer)
    page.fill("#id_name", name)
    page.uncheck("#id_sit_down")  # the socket is scripted: nobody needs a real seat
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    config = json.loads(page.locator("#table-config").inner_text())
    # The site's own font is in (static/fonts): every layout is measured in it, whatever
    # fonts the machine has.
    page.wait_for_function(FONT_LOADED)
    for _ in range(100):
        if sockets:
            break
        page.wait_for_timeout(50)
    assert sockets, "the page opened its websocket"
    table = Table(config["table"], config["user"], username.capitalize())
    return page, sockets[-1], table, received


def send(ws: Any, *messages: dict[str, Any]) -> None:
    for message in messages:
        ws.send(json.dumps(message))
