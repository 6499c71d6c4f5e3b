"""The table websocket in-process: failures answer server_error, presence follows the
socket, a resent submit counts once, and events reach the socket in version order."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.db import OperationalError

from games import consumers, events, services
from games.consumers import TableConsumer
from games.liveness import open_sockets
from games.models import RoundEvent, Seat, Table
from tests.support.arranging import naive_arrangement
from tests.support.played import deal_for_two
from tests.support.services import TEST_REDIS_URL
from tests.support.wsclient import run_async

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("own_socket_threads"),
]


def _socket(user: Any, table: Table) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{table.pk}/")
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"kwargs": {"table_id": table.pk}}
    return communicator


async def _open(user: Any, table: Table) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    socket = _socket(user, table)
    accepted, _ = await socket.connect(timeout=10)
    assert accepted
    snapshot = await socket.receive_json_from(timeout=10)
    assert snapshot["type"] == "snapshot"
    return socket, snapshot


async def _until(socket: WebsocketCommunicator, predicate: Any, timeout: float = 10) -> Any:
    """Messages up to and including the first that matches."""
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        message = await socket.receive_json_from(timeout=max(0.1, deadline - time.monotonic()))
        seen.append(message)
        if predicate(message):
            return seen


def test_a_database_error_during_a_snapshot_answers_server_error_and_keeps_the_socket_open(
    players, table, monkeypatch
):
    async def scenario() -> None:
        socket, _ = await _open(players[0], table)

        def database_gone(*args: Any) -> None:
            raise OperationalError("terminating connection due to administrator command")

        with monkeypatch.context() as patched:
            patched.setattr(consumers.selectors, "snapshot_and_later", database_gone)
            await socket.send_json_to({"type": "snapshot", "ref": 1})
            reply = await socket.receive_json_from(timeout=10)
        assert (reply["type"], reply["code"], reply["ref"]) == ("error", "server_error", 1)
        await socket.send_json_to({"type": "ping", "ref": 2})
        assert (await socket.receive_json_from(timeout=10))["type"] == "ok"
        await socket.disconnect()

    run_async(scenario())


def test_a_socket_opening_as_the_database_ends_its_connection_still_gets_its_snapshot(
    players, table, monkeypatch
):
    connected = services.connected
    calls = []

    def ended_once(*args: Any) -> None:
        calls.append(args)
        if len(calls) == 1:
            raise OperationalError("terminating connection due to administrator command")
        connected(*args)

    monkeypatch.setattr(consumers.services, "connected", ended_once)

    async def scenario() -> None:
        socket, snapshot = await _open(players[0], table)  # a snapshot, not server_error
        assert snapshot["version"] >= 0
        await socket.disconnect()

    run_async(scenario())
    assert len(calls) == 2


@pytest.mark.postgres
def test_a_snapshot_asked_while_the_database_ends_the_connection_twice_still_arrives(
    players, table, monkeypatch
):
    from django.db import connection

    snapshot = consumers.selectors.snapshot_and_later
    calls = []

    def ended_twice(*args: Any) -> Any:
        calls.append(args)
        if len(calls) <= 2:
            with connection.cursor() as cursor:  # PostgreSQL ends this very connection
                cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return snapshot(*args)

    async def scenario() -> None:
        socket, _ = await _open(players[0], table)
        calls.clear()
        monkeypatch.setattr(consumers.selectors, "snapshot_and_later", ended_twice)
        await socket.send_json_to({"type": "snapshot", "ref": 1})
        reply = await socket.receive_json_from(timeout=10)
        assert (reply["type"], reply["ref"]) == ("snapshot", 1)
        await socket.disconnect()

    run_async(scenario())
    assert len(calls) == 3


def test_a_sit_whose_connection_the_database_ends_as_it_opens_still_seats_the_player(
    players, table, monkeypatch
):
    """The connection a command opens is ended while it is set up (chaos: pg_terminate):
    nothing of the command has run, so it runs on a new connection instead of answering
    server_error."""
    import threading

    from django.db.backends.base.base import BaseDatabaseWrapper

    ensure_connection = BaseDatabaseWrapper.ensure_connection
    ended = []

    def ended_while_opening(self: BaseDatabaseWrapper) -> None:
        if not ended and threading.current_thread() is not threading.main_thread():
            ended.append(self.alias)
            raise OperationalError("terminating connection due to administrator command")
        ensure_connection(self)

    async def scenario() -> None:
        socket, _ = await _open(players[0], table)
        monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", ended_while_opening)
        await socket.send_json_to({"type": "sit", "ref": 1})
        reply = await _until(socket, lambda m: m.get("ref") == 1)
        assert (reply[-1]["type"], reply[-1]["for"]) == ("ok", "sit")
        await socket.disconnect()

    run_async(scenario())
    assert ended == ["default"]
    assert Seat.objects.filter(table=table, user=players[0]).exists()


@pytest.mark.postgres
def test_a_ping_while_the_database_ends_the_connection_still_answers_ok(
    players, table, monkeypatch
):
    from django.db import connection

    heard_from = consumers.services.heard_from
    calls = []

    def ended_once(*args: Any) -> None:
        calls.append(args)
        if len(calls) == 1:
            with connection.cursor() as cursor:  # PostgreSQL ends this very connection
                cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        heard_from(*args)

    async def scenario() -> None:
        socket, _ = await _open(players[0], table)
        monkeypatch.setattr(consumers.services, "heard_from", ended_once)
        await socket.send_json_to({"type": "ping", "ref": 1})
        reply = await socket.receive_json_from(timeout=10)
        assert (reply["type"], reply["for"], reply["ref"]) == ("ok", "ping", 1)
        await socket.disconnect()

    run_async(scenario())
    assert len(calls) == 2


def test_a_consumer_that_crashed_no_longer_keeps_its_socket_alive(players, table):
    from channels.layers import get_channel_layer

    async def scenario() -> None:
        socket, _ = await _open(players[0], table)
        mine = [key for key, s in open_sockets.open.items() if s.user_id == players[0].pk]
        assert len(mine) == 1
        # A message no handler knows makes Channels raise inside the consumer: a crash.
        await get_channel_layer().group_send(events.table_group(table.pk), {"type": "no.such"})
        with pytest.raises(ValueError, match="No handler"):
            await socket.receive_output(timeout=10)
        assert mine[0] not in open_sockets.open  # its row is no longer renewed: it expires

    run_async(scenario())


def test_sitting_twice_on_one_socket_does_not_keep_the_player_present_after_it_closes(
    players, table
):
    async def scenario() -> None:
        watcher, _ = await _open(players[1], table)
        socket, _ = await _open(players[0], table)
        for ref in (1, 2):
            await socket.send_json_to({"type": "sit", "ref": ref})
            await _until(socket, lambda m, ref=ref: m.get("ref") == ref)
        await socket.disconnect()
        seen = await _until(watcher, lambda m: m["type"] == "presence")
        assert seen[-1]["online"] is False
        await watcher.disconnect()

    run_async(scenario())


def test_a_resent_submit_is_one_submission_answered_ok_each_time(players, table):
    round_ = deal_for_two(players, table)
    chi = naive_arrangement(round_.players.get(user=players[0]).cards)

    async def scenario() -> None:
        socket, snapshot = await _open(players[0], table)
        message = {"type": "submit", "round": round_.pk, "chi": chi, "ref": "s1"}
        message["version"] = snapshot["version"]
        replies = []
        for _ in range(3):  # the page resends until it hears back
            await socket.send_json_to(message)
            seen = await _until(socket, lambda m: m.get("ref") == "s1")
            replies.append(seen[-1])
        assert [(r["type"], r["round"]) for r in replies] == [("ok", round_.pk)] * 3
        await socket.disconnect()

    run_async(scenario())
    assert RoundEvent.objects.filter(round=round_, kind="submit").count() == 1


@pytest.fixture(params=["in-memory", pytest.param("redis-pubsub", marks=pytest.mark.redis)])
def layer(request: pytest.FixtureRequest, settings: Any) -> str:
    if request.param == "redis-pubsub":
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "maubinh_site.channel_layer.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [TEST_REDIS_URL], "prefix": f"presence-test{time.time()}:"},
            }
        }
    return str(request.param)


def test_when_the_last_players_stand_at_once_every_socket_sees_the_events_in_version_order(
    players, table, layer, monkeypatch
):
    for p in players[:2]:
        services.sit(p, table.pk)  # two seated: the countdown runs
    send = events._group_send

    def slow_countdown(layer_: Any, group: str, message: dict[str, Any]) -> None:
        # The first stand's countdown cancel is still on its way when the second commits.
        if message["head"]["type"] == "countdown":
            time.sleep(0.5)
        send(layer_, group, message)

    monkeypatch.setattr(events, "_group_send", slow_countdown)

    async def scenario() -> None:
        watcher, snapshot = await _open(players[2], table)
        loop = asyncio.get_running_loop()
        first = loop.run_in_executor(None, services.stand, players[0])
        await asyncio.sleep(0.1)
        second = loop.run_in_executor(None, services.stand, players[1])
        await asyncio.gather(first, second)
        seen = await _until(
            watcher,
            lambda m: m["type"] == "seat_left" and m["version"] == snapshot["version"] + 3,
        )
        versions = [(m["type"], m["version"]) for m in seen]
        assert versions == [
            ("seat_left", snapshot["version"] + 1),
            ("countdown", snapshot["version"] + 2),
            ("seat_left", snapshot["version"] + 3),
        ]
        await watcher.disconnect()

    run_async(scenario())
