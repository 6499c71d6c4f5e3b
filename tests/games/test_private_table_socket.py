"""A socket to a private table is checked like the page: only with an invite (or a seat),
or by a staff role held in good standing."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts import services as accounts
from games import consumers, services
from games.consumers import CLOSE_FORBIDDEN, TableConsumer
from games.models import Table
from games.services import private
from tests.moderation.conftest import _staff
from tests.support.wsclient import run_async

pytestmark = pytest.mark.django_db(transaction=True)


def _socket(user: Any, table: Table) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{table.pk}/")
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"kwargs": {"table_id": table.pk}}
    return communicator


async def _connect(user: Any, table: Table) -> tuple[bool, Any]:
    """(whether the socket got its snapshot, else its close code): every handshake is
    answered at once and a socket that may not be there is closed right after
    (docs/protocol.md)."""
    socket = _socket(user, table)
    accepted, _code = await socket.connect(timeout=10)
    assert accepted
    message = await socket.receive_output(timeout=10)
    if message["type"] == "websocket.close":
        return False, message.get("code")
    assert json.loads(message["text"])["type"] == "snapshot"
    await socket.disconnect()
    return True, None


def test_a_socket_cannot_join_a_private_table_without_an_invite(players) -> None:
    table = services.open_table(players[0], name="Nhà riêng", stake=10, is_private=True)
    accepted, code = run_async(_connect(players[1], table))
    assert not accepted
    assert code == CLOSE_FORBIDDEN


def test_a_socket_joins_a_private_table_once_its_invite_was_opened(players) -> None:
    table = services.open_table(players[0], name="Nhà riêng", stake=10, is_private=True)
    invite = private.create_invite(players[0], table.pk)
    private.admit(players[1], invite.token)
    accepted, _code = run_async(_connect(players[1], table))
    assert accepted


def test_a_socket_to_a_public_table_needs_no_invite(players, table) -> None:
    accepted, _code = run_async(_connect(players[1], table))
    assert accepted


def test_a_player_the_host_removes_from_a_private_table_is_closed_out(players) -> None:
    table = services.open_table(players[0], name="Nhà riêng", stake=10, is_private=True)
    invite = private.create_invite(players[0], table.pk)
    private.sit_by_invite(players[1], invite.token)

    async def scenario() -> None:
        socket = _socket(players[1], table)
        accepted, _code = await socket.connect(timeout=10)
        assert accepted
        assert (await socket.receive_json_from(timeout=10))["type"] == "snapshot"
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, private.remove_player, players[0], table.pk, players[1].pk)
        while True:
            message = await socket.receive_output(timeout=10)
            if message["type"] == "websocket.close":
                assert message["code"] == CLOSE_FORBIDDEN
                return
            event = json.loads(message["text"])
            if event["type"] == "seat_left":
                assert event["reason"] == "removed"

    run_async(scenario())
    accepted, code = run_async(_connect(players[1], table))
    assert not accepted
    assert code == CLOSE_FORBIDDEN


async def _closed_code(socket: WebsocketCommunicator) -> Any:
    """Read until the socket is closed: its close code."""
    while True:
        message = await socket.receive_output(timeout=10)
        if message["type"] == "websocket.close":
            return message.get("code")


@pytest.mark.parametrize("then", ["the moderator pings", "the table moves"])
def test_a_moderator_watching_a_private_table_by_role_stops_when_suspended(
    players, make_user, monkeypatch, then
) -> None:
    monkeypatch.setattr(consumers, "ROLE_CHECK_SECONDS", 0.0)
    moderator = _staff(make_user, "mod", moderator=True)
    table = services.open_table(players[0], name="Nhà riêng", stake=10, is_private=True)

    async def scenario() -> Any:
        socket = _socket(moderator, table)
        accepted, _code = await socket.connect(timeout=10)
        assert accepted
        assert (await socket.receive_json_from(timeout=10))["type"] == "snapshot"
        await socket.send_json_to({"type": "ping", "ref": 1})  # in good standing: answered
        assert (await socket.receive_json_from(timeout=10))["type"] == "ok"
        loop = asyncio.get_running_loop()
        until = timezone.now() + timedelta(days=1)
        await loop.run_in_executor(
            None, lambda: accounts.suspend_user(moderator, until=until, reason="Đang xem xét")
        )
        if then == "the moderator pings":
            await socket.send_json_to({"type": "ping", "ref": 2})
        else:
            await loop.run_in_executor(None, services.stand, players[0])  # the host stands
        return await _closed_code(socket)

    assert run_async(scenario()) == CLOSE_FORBIDDEN
    moderator.refresh_from_db()
    accepted, code = run_async(_connect(moderator, table))
    assert (accepted, code) == (False, CLOSE_FORBIDDEN)
