"""No socket input raises inside the application: every websocket route of the site, with
hostile path values (ids beyond a bigint, malformed, unknown paths) and, where the socket
opens, hostile messages of every type it knows.

A bad path is answered and closed with 4404 (or 4401 for a visitor); a bad message gets
an error naming what was wrong (never ``server_error``), and the socket still answers.
Nothing is logged at ERROR ("Exception inside application" included), and no number
beyond a bigint reaches a query (``huge_numbers_queried``).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from django.urls import URLPattern

from chat.consumers import ChatTableConsumer
from games import consumers
from games import services as games
from maubinh_site.routing import websocket_urlpatterns
from tests.games.test_consumer_input import HOSTILE as HOSTILE_FRAMES
from tests.support.wsclient import run_async
from tournaments.arena import services as arena
from tournaments.sitandgo import services as tournaments

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.usefixtures("own_socket_threads"),
    pytest.mark.django_db(transaction=True),
]

CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")
HUGE_IDS = ["99999999999999999999999", "9223372036854775808"]
BAD_PATH_VALUES = [*HUGE_IDS, "0", "00", "-1", "abc", "²", "1.5", "987654321"]
UNKNOWN_PATHS = ["/ws/", "/ws/nothing/", "/ws/tables/", "/ws/tables/1/x/", "/ws/lobby/x/", "/"]
HOSTILE_VALUES: list[Any] = [
    10**23,
    2**63,
    -1,
    0,
    1.5,
    True,
    None,
    [],
    {"a": 1},
    "x" * 3000,
    "\u3164",
    "a" + "\u0301" * 199,
    "²",
    "\u202e",
]
FIELDS = [
    "round", "message", "user", "position", "version", "chi", "text", "phrase", "channel",
    "seed", "reaction", "spectators", "word_filter", "page",
]  # fmt: skip
ID_FIELDS = ["round", "message", "user"]


def _routes() -> list[str]:
    return [
        str(pattern.pattern)
        for pattern in websocket_urlpatterns
        if isinstance(pattern, URLPattern) and str(pattern.pattern)
    ]


def _app() -> Any:
    return consumers.login_stack(URLRouter(websocket_urlpatterns))


def _cookie(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


@pytest.fixture
def world(make_user: Any) -> dict[str, Any]:
    players = [make_user(name) for name in ("an", "binh", "chi", "dung")]
    table = games.create_table(players[0], name="Bàn", stake=10)
    games.sit(players[0], table.pk)
    games.sit(players[1], table.pk)
    sit_and_go = tournaments.create_sit_and_go(players[2], name="Giải", players=4, buy_in=0)
    created_arena = arena.create_arena(players[3], name="Đấu trường", minutes=10, buy_in=0)
    return {
        "user": players[0],
        "ids": {"table_id": table.pk, "tournament_id": sit_and_go.pk},
        "arena_id": created_arena.pk,
    }


async def _closed_after_handshake(path: str, cookie: bytes) -> tuple[bool, Any]:
    socket = WebsocketCommunicator(_app(), path, headers=[(b"cookie", cookie)])
    accepted, _code = await socket.connect(timeout=5)
    following = await socket.receive_output(timeout=5)
    await socket.disconnect(timeout=5)  # raises what the application raised, if it did
    return accepted, following


def test_every_socket_route_closes_a_bad_path_cleanly(
    world: dict[str, Any], caplog: pytest.LogCaptureFixture, huge_numbers_queried: list[str]
) -> None:
    cookie = _cookie(world["user"])
    paths = [
        "/" + CONVERTER.sub(value, route)
        for route in _routes()
        if CONVERTER.search(route)
        for value in BAD_PATH_VALUES
    ]
    paths += UNKNOWN_PATHS

    async def run() -> dict[str, Any]:
        outcomes = {path: await _closed_after_handshake(path, cookie) for path in paths}
        await database_sync_to_async(connections.close_all)()
        return outcomes

    with caplog.at_level(logging.ERROR):
        outcomes = run_async(run())
    closed = (True, {"type": "websocket.close", "code": 4404})
    assert {path: outcome for path, outcome in outcomes.items() if outcome != closed} == {}
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert huge_numbers_queried == []


def test_a_huge_tournament_id_on_the_arena_socket_is_closed_before_any_query(
    world: dict[str, Any], caplog: pytest.LogCaptureFixture, huge_numbers_queried: list[str]
) -> None:
    cookie = _cookie(world["user"])
    path = "/ws/tournaments/99999999999999999999999/arena/"

    async def run() -> tuple[bool, Any]:
        outcome = await _closed_after_handshake(path, cookie)
        await database_sync_to_async(connections.close_all)()
        return outcome

    with caplog.at_level(logging.ERROR):
        assert run_async(run()) == (True, {"type": "websocket.close", "code": 4404})
    assert "Exception inside application" not in caplog.text
    assert caplog.records == [] or all(r.levelno < logging.ERROR for r in caplog.records)
    assert huge_numbers_queried == []


def _messages(types: list[str]) -> list[dict[str, Any]]:
    """Every type with every field set to one hostile value, then each id field alone."""
    found = [
        {"type": kind, **dict.fromkeys(FIELDS, value)} for kind in types for value in HOSTILE_VALUES
    ]
    found += [
        {"type": kind, "chi": [["AS"]], "text": "chào", field: value}
        for kind in types
        for field in ID_FIELDS
        for value in (10**23, 2**63, -5)
    ]
    return found


async def _walk(path: str, cookie: bytes, types: list[str]) -> list[str]:
    """Send the hostile frames and messages; what went wrong (a server error, no answer)."""
    socket = WebsocketCommunicator(_app(), path, headers=[(b"cookie", cookie)])
    accepted, _code = await socket.connect(timeout=5)
    assert accepted
    await socket.receive_json_from(timeout=5)  # the first state
    problems: list[str] = []
    for frame in HOSTILE_FRAMES.values():
        await socket.send_to(text_data=frame)
        while (await socket.receive_json_from(timeout=10)).get("code") != "malformed":
            pass  # events and the socket's other first messages
    for ref, message in enumerate(_messages(types)):
        await socket.send_json_to({**message, "ref": ref})
        try:
            while True:
                reply = await socket.receive_json_from(timeout=10)
                if reply.get("ref") == ref or reply.get("code") == "malformed":
                    break  # a message over 16 KiB is refused unread, its ref with it
        except TimeoutError:
            problems.append(f"{path} {json.dumps(message)[:120]}: no answer")
            break
        if reply.get("code") == "server_error":
            problems.append(f"{path} {json.dumps(message)[:120]}: {reply}")
    await socket.send_json_to({"type": "snapshot", "ref": "last"})
    while (await socket.receive_json_from(timeout=10)).get("ref") != "last":
        pass  # it still answers
    await socket.disconnect()
    return problems


def test_no_hostile_message_to_any_open_socket_raises_or_reaches_the_database(
    world: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
    huge_numbers_queried: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(consumers.TokenBucket, "allow", lambda self: True)  # no rate limit
    cookie = _cookie(world["user"])
    table_types = sorted(ChatTableConsumer.HANDLERS)
    sockets = [
        ("/ws/lobby/", ["snapshot", "nope"]),
        (f"/ws/tables/{world['ids']['table_id']}/", [*table_types, "snapshot", "nope"]),
        (f"/ws/tournaments/{world['ids']['tournament_id']}/", ["snapshot", "nope"]),
        (f"/ws/tournaments/{world['arena_id']}/arena/", ["snapshot", "nope"]),
    ]
    assert {path.split("/")[2] for path, _types in sockets} >= {"lobby", "tables", "tournaments"}

    async def run() -> list[str]:
        problems = []
        for path, types in sockets:
            problems += await _walk(path, cookie, types)
        await database_sync_to_async(connections.close_all)()
        return problems

    with caplog.at_level(logging.ERROR):
        problems = run_async(run())
    assert problems == []
    assert [r.getMessage()[:200] for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert huge_numbers_queried == []
