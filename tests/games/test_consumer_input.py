"""No client input kills a socket; a socket whose login session ended can do nothing."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connections
from django.test import Client
from django.urls import path, re_path, reverse
from django.utils import timezone

from games import consumers
from games import services as games
from games.consumers import LobbyConsumer, NoSuchSocket, TableConsumer
from games.socket_input import MAX_MESSAGE_BYTES, parse_message
from tests.support.wsclient import run_async

# Sockets' database work on threads of each test's (tests/games/conftest.py).
pytestmark = pytest.mark.usefixtures("own_socket_threads")

HOSTILE = {
    "nested brackets (2 KB)": "[" * 1000 + "]" * 1000,
    "nested objects": '{"type":"ping","x":' + '{"a":' * 500 + "1" + "}" * 500 + "}",
    "a megabyte ping": json.dumps({"type": "ping", "pad": "x" * 1_000_000}),
    "just over the limit": json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE_BYTES}),
    "multi-byte over the limit": json.dumps(
        {"type": "ping", "pad": "ệ" * 6000}, ensure_ascii=False
    ),
    "a NUL": '{"type":"sit","seed":"\\u0000"}',
    "a lone surrogate": '{"type":"client_seed","seed":"\\ud800"}',
    "deep but small": '{"type":"ping","x":[[[[[[[[1]]]]]]]]}',
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_message_is_refused_as_malformed_without_raising(name: str) -> None:
    assert isinstance(parse_message(HOSTILE[name], None), str)


def test_a_binary_frame_is_refused() -> None:
    assert isinstance(parse_message(None, b'{"type":"ping"}'), str)


def test_an_ordinary_message_is_parsed() -> None:
    message = '{"type":"submit","round":3,"chi":[["AS","KS","QS","JS","TS"],["2C"],["3D"]]}'
    assert parse_message(message, None) == json.loads(message)


# The games consumers alone, routed as the site routes them (maubinh_site.routing, whose
# table socket adds table talk on top: its frames would interleave with these).
websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]


def _app() -> Any:
    return consumers.login_stack(URLRouter(websocket_urlpatterns))


def _logged_in(user: Any) -> tuple[Client, bytes]:
    client = Client()
    client.force_login(user)
    return client, f"sessionid={client.cookies['sessionid'].value}".encode()


async def _done() -> None:
    await database_sync_to_async(connections.close_all)()


async def _open(table_id: int, cookie: bytes) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(_app(), f"/ws/tables/{table_id}/", headers=[(b"cookie", cookie)])
    connected, _code = await socket.connect()
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "snapshot"
    return socket


async def _reply(socket: WebsocketCommunicator, **message: Any) -> dict[str, Any]:
    await socket.send_json_to(message)
    while True:
        reply = await socket.receive_json_from(timeout=5)
        if reply.get("type") in ("ok", "error"):
            return reply


@pytest.fixture
def table(make_user: Any) -> Any:
    host = make_user("an")
    return games.create_table(host, name="Bàn", stake=10)


@pytest.mark.django_db(transaction=True)
def test_the_socket_survives_every_hostile_message_and_still_answers(table: Any) -> None:
    _client, cookie = _logged_in(table.host)

    async def run() -> list[str]:
        socket = await _open(table.pk, cookie)
        codes = []
        for text in HOSTILE.values():
            await socket.send_to(text_data=text)
            codes.append((await socket.receive_json_from(timeout=5))["code"])
        await socket.send_to(bytes_data=b"\xff\xfe")
        codes.append((await socket.receive_json_from(timeout=5))["code"])
        pong = await _reply(socket, type="ping", ref=1)
        await socket.disconnect()
        await _done()
        return [*codes, pong["type"]]

    assert run_async(run()) == ["malformed"] * (len(HOSTILE) + 1) + ["ok"]


@pytest.mark.django_db(transaction=True)
def test_logging_out_closes_that_sessions_sockets(table: Any) -> None:
    client, cookie = _logged_in(table.host)
    _other_client, other_cookie = _logged_in(table.host)  # another browser stays logged in

    async def run() -> tuple[Any, Any]:
        socket = await _open(table.pk, cookie)
        other = await _open(table.pk, other_cookie)
        await asyncio.to_thread(client.post, reverse("accounts:logout"))
        closed = await socket.receive_output(timeout=5)
        still = await _reply(other, type="ping")
        await other.disconnect()
        await _done()
        return closed, still["type"]

    closed, other_reply = run_async(run())
    assert closed == {"type": "websocket.close", "code": 4401}
    assert other_reply == "ok"


def _end_sessions() -> None:
    Session.objects.all().delete()


def _expire_sessions() -> None:
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))


def _deactivate_users() -> None:
    get_user_model().objects.update(is_active=False)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("end", [_end_sessions, _expire_sessions, _deactivate_users])
@pytest.mark.parametrize("message", ["sit", "snapshot"])  # a command, and a read
def test_a_socket_whose_session_ended_expired_or_whose_user_was_deactivated_can_do_nothing(
    table: Any, monkeypatch: pytest.MonkeyPatch, end: Any, message: str
) -> None:
    monkeypatch.setattr(consumers, "SESSION_CHECK_SECONDS", 0.0)
    _client, cookie = _logged_in(table.host)

    async def run() -> Any:
        socket = await _open(table.pk, cookie)
        await asyncio.to_thread(end)
        await socket.send_json_to({"type": message})
        closed = await socket.receive_output(timeout=5)
        await _done()
        return closed

    assert run_async(run()) == {"type": "websocket.close", "code": 4401}
    assert not table.seat_set.exists()


@pytest.mark.django_db(transaction=True)
def test_a_command_checks_the_login_session_on_its_own_thread_hop_not_one_more(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every command checked the session first in a hop of its own to a database thread
    # (two hops a command, each a few hundred microseconds of the server's event loop).
    monkeypatch.setattr(consumers, "SESSION_CHECK_SECONDS", 0.0)
    hops: list[str] = []
    checks: list[int] = []
    run_command, session_alive = consumers.run_command, consumers.still_logged_in

    def counted_run_command(func: Any) -> Any:
        hops.append(getattr(func, "__name__", repr(func)))
        return run_command(func)

    def counted_session_alive(key: str, user_id: int) -> bool:
        checks.append(user_id)
        return session_alive(key, user_id)

    monkeypatch.setattr(consumers, "run_command", counted_run_command)
    monkeypatch.setattr(consumers, "still_logged_in", counted_session_alive)
    _client, cookie = _logged_in(table.host)

    async def run() -> tuple[str, list[str]]:
        socket = await _open(table.pk, cookie)
        hops.clear()
        reply = await _reply(socket, type="sit")
        during = list(hops)
        await socket.disconnect()
        await _done()
        return str(reply["type"]), during

    assert run_async(run()) == ("ok", ["timed_handler"])
    assert checks == [table.host.pk]
    assert table.seat_set.filter(user=table.host).exists()


async def _closed_or_open(socket: WebsocketCommunicator) -> Any:
    """The socket's close (code), or "open" when it still answers a ping."""
    await socket.send_json_to({"type": "ping"})
    while True:
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output["code"]
        if json.loads(output["text"]).get("type") in ("ok", "error"):
            await socket.disconnect()
            return "open"


async def _refused(table_id: int, cookie: bytes) -> Any:
    socket = WebsocketCommunicator(_app(), f"/ws/tables/{table_id}/", headers=[(b"cookie", cookie)])
    connected, _code = await socket.connect()
    assert connected  # answered at once, then closed (docs/protocol.md)
    return (await socket.receive_output(timeout=5))["code"]


@pytest.mark.django_db(transaction=True)
def test_changing_the_password_closes_the_other_browsers_sockets_at_once(
    table: Any, password: str
) -> None:
    # The other browser does nothing: nothing waits for its next message. The browser that
    # changed it keeps its login under a new session key (Django cycles it), with which
    # its page opens its socket again (static/games/live.js).
    client, cookie = _logged_in(table.host)
    _other_client, other_cookie = _logged_in(table.host)
    new = "another-Passw0rd!"

    async def run() -> tuple[Any, Any, Any]:
        await _open(table.pk, cookie)
        there = await _open(table.pk, other_cookie)
        response = await asyncio.to_thread(
            client.post,
            reverse("accounts:password_change"),
            {"old_password": password, "new_password1": new, "new_password2": new},
        )
        assert response.status_code == 302
        closed = await there.receive_output(timeout=5)
        moved = f"sessionid={client.cookies['sessionid'].value}".encode()
        assert moved != cookie
        again = await _open(table.pk, moved)
        still = await _closed_or_open(again)
        refused = await _refused(table.pk, other_cookie)
        await _done()
        return closed, still, refused

    closed, still, refused = run_async(run())
    assert closed == {"type": "websocket.close", "code": 4401}
    assert still == "open"
    assert refused == 4401


@pytest.mark.django_db(transaction=True)
def test_deactivating_a_user_closes_every_socket_of_theirs_at_once(
    table: Any, make_user: Any
) -> None:
    _client, cookie = _logged_in(table.host)
    _other_client, other_cookie = _logged_in(table.host)
    _guest_client, guest_cookie = _logged_in(make_user("binh"))

    def deactivate() -> None:
        host = get_user_model().objects.get(pk=table.host.pk)
        host.is_active = False
        host.save()

    async def run() -> tuple[Any, Any, Any]:
        sockets = [await _open(table.pk, c) for c in (cookie, other_cookie, guest_cookie)]
        await asyncio.to_thread(deactivate)
        first = await sockets[0].receive_output(timeout=5)
        second = await sockets[1].receive_output(timeout=5)
        guest = await _closed_or_open(sockets[2])
        await _done()
        return first, second, guest

    first, second, guest = run_async(run())
    assert first == second == {"type": "websocket.close", "code": 4401}
    assert guest == "open"


@pytest.mark.django_db(transaction=True)
def test_a_password_set_straight_in_the_database_is_found_by_the_sockets_next_check(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No signal tells of an UPDATE: the check every SESSION_CHECK_SECONDS does, and it
    # compares the session's password hash as Django does (the row is still there).
    monkeypatch.setattr(consumers, "SESSION_CHECK_SECONDS", 0.0)
    _client, cookie = _logged_in(table.host)

    def change() -> None:
        get_user_model().objects.filter(pk=table.host.pk).update(password="!")

    async def run() -> Any:
        socket = await _open(table.pk, cookie)
        await asyncio.to_thread(change)
        code = await _closed_or_open(socket)
        await _done()
        return code

    assert run_async(run()) == 4401
    assert not table.seat_set.exists()


@pytest.mark.django_db(transaction=True)
def test_a_socket_reads_its_login_session_once_a_minute_of_commands_not_at_each(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A round is eight commands a table (four submissions, four readies): each read the
    # session when the check ran every 2 s.
    checks: list[int] = []
    session_alive = consumers.still_logged_in
    clock = [1000.0]

    def counted(key: str, user_id: int) -> bool:
        checks.append(user_id)
        return session_alive(key, user_id)

    monkeypatch.setattr(consumers, "still_logged_in", counted)
    monkeypatch.setattr(consumers.time, "monotonic", lambda: clock[0])
    _client, cookie = _logged_in(table.host)

    async def run() -> None:
        socket = await _open(table.pk, cookie)
        for _ in range(12):  # a command every 5 s for a minute
            clock[0] += 5.0
            assert (await _reply(socket, type="ping"))["type"] == "ok"
        clock[0] += 1.0
        assert (await _reply(socket, type="ping"))["type"] == "ok"
        await socket.disconnect()
        await _done()

    run_async(run())
    assert checks == [table.host.pk]  # once in the minute (its first check comes after 30-60 s)


@pytest.mark.django_db(transaction=True)
def test_an_anonymous_lobby_socket_gets_one_bounded_page(make_user: Any, settings: Any) -> None:
    settings.TABLES_OPEN_PER_USER = settings.TABLES_CREATED_PER_HOUR = 1000
    settings.LOBBY_PAGE_SIZE = 5
    host = make_user("an")
    for i in range(12):
        games.create_table(host, name=f"Bàn {i}", stake=1)

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        socket = WebsocketCommunicator(_app(), "/ws/lobby/?page=2")
        connected, _code = await socket.connect()
        assert connected
        first = await socket.receive_json_from(timeout=5)
        await socket.send_json_to({"type": "snapshot", "page": {"x": 1}})
        other = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        await _done()
        return first, other

    first, other = run_async(run())
    assert (len(first["tables"]), first["page"], first["pages"], first["total"]) == (5, 2, 3, 12)
    assert (len(other["tables"]), other["page"]) == (5, 1)


def _handshake_then(path: str, cookie: bytes) -> Any:
    """Whether the handshake was answered, and what the socket received next."""

    async def run() -> tuple[bool, Any]:
        socket = WebsocketCommunicator(_app(), path, headers=[(b"cookie", cookie)])
        accepted, _code = await socket.connect()
        following = await socket.receive_output(timeout=5)
        await _done()
        return accepted, following

    return run_async(run())


@pytest.mark.django_db(transaction=True)
def test_a_socket_not_logged_in_is_answered_then_closed_with_4401(table: Any) -> None:
    closed = {"type": "websocket.close", "code": 4401}
    assert _handshake_then(f"/ws/tables/{table.pk}/", b"sessionid=nosuchsession") == (
        True,
        closed,
    )


@pytest.mark.django_db(transaction=True)
def test_a_socket_for_a_table_that_does_not_exist_is_answered_then_closed_with_4404(
    table: Any,
) -> None:
    _client, cookie = _logged_in(table.host)
    closed = {"type": "websocket.close", "code": 4404}
    assert _handshake_then(f"/ws/tables/{table.pk + 1000}/", cookie) == (True, closed)
