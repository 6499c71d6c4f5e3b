"""Shut out of a private table means gone: over real websockets (a daphne process, Redis,
PostgreSQL), a guest whose invite link is revoked, or who is kept apart from the host by a
block, has their open socket closed with 4403 and can no longer talk there."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from chat import services as chat
from chat.errors import ChatError
from games import services
from games.consumers import CLOSE_FORBIDDEN
from games.models import Table
from games.services import private
from social import services as social
from tests.support.live import MARKS, live_stack
from tests.support.processes import RUN_PREFIX
from tests.support.services import TEST_REDIS_URL
from tests.support.wsclient import Player, SocketClosed, login, run_async

pytestmark = MARKS


@pytest.fixture
def server(tmp_path, settings):  # type: ignore[no-untyped-def]
    # The services called here publish on the servers' layer, as a server's would.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "maubinh_site.channel_layer.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [TEST_REDIS_URL], "prefix": f"{RUN_PREFIX}:"},
        }
    }
    with live_stack(tmp_path, servers=1) as running:
        yield running


@pytest.fixture
def private_table(players) -> Table:  # type: ignore[no-untyped-def]
    """An's private table, An seated."""
    return services.open_table(players[0], name="Nhà An", stake=10, is_private=True)


async def _open(server: Any, user: Any, password: str, table_id: int) -> Player:
    cookie = await asyncio.to_thread(login, server.bases[0], user.username, password)
    client = Player(server.bases[0], cookie, table_id, user.username)
    await client.connect()
    await client.wait_for(lambda m: m["type"] == "chat_state")
    return client


async def _closed_with(client: Player, timeout: float = 15.0) -> Any:
    """Wait until the server closes the socket: its close code."""
    try:
        await client.wait_for(lambda m: False, timeout)
    except SocketClosed:
        return client.ws.close_code
    raise AssertionError(f"{client.name}: still open")


async def _refused_on_connect(server: Any, user: Any, password: str, table_id: int) -> Any:
    cookie = await asyncio.to_thread(login, server.bases[0], user.username, password)
    client = Player(server.bases[0], cookie, table_id, user.username)
    try:
        await client.connect()
    except SocketClosed:
        return client.ws.close_code
    await client.close()
    raise AssertionError(f"{user.username}: let in again")


def _said(text: str) -> Any:
    return lambda m: m["type"] == "chat_message" and m["text"] == text


def test_revoking_a_link_closes_the_sockets_of_those_it_let_in_who_are_not_seated(
    server, players, password, private_table
) -> None:
    an, binh, chi = players[:3]
    link = private.create_invite(an, private_table.pk)
    private.admit(binh, link.token)  # Bình watches through the link
    private.sit_by_invite(chi, link.token)  # Chi sat down through it
    chat.set_chat_settings(an, private_table.pk, spectators="talk")  # watchers talk, too

    async def run() -> None:
        host = await _open(server, an, password, private_table.pk)
        watcher = await _open(server, binh, password, private_table.pk)
        seated = await _open(server, chi, password, private_table.pk)
        assert (await watcher.request(type="chat", text="chào chủ bàn"))["type"] == "ok"
        await host.wait_for(_said("chào chủ bàn"))

        await asyncio.to_thread(private.revoke_invite, an, link.pk)
        assert await _closed_with(watcher) == CLOSE_FORBIDDEN
        # The seated guest and the host keep talking; the watcher hears nothing more.
        assert (await seated.request(type="chat", text="vẫn ở đây"))["type"] == "ok"
        await host.wait_for(_said("vẫn ở đây"))
        assert not any(m.get("text") == "vẫn ở đây" for m in watcher.received)
        with pytest.raises(SocketClosed):
            await watcher.send(type="chat", text="còn nghe không?")
        # The link lets them in no more, and no new socket either.
        assert await _refused_on_connect(server, binh, password, private_table.pk) == 4403
        # The seated guest has no way in left once they stand up: they go, too.
        await asyncio.to_thread(services.stand, chi)
        assert await _closed_with(seated) == CLOSE_FORBIDDEN
        assert (await host.request(type="ping"))["type"] == "ok"
        await host.close()

    run_async(run())
    with pytest.raises(ChatError):
        chat.post_message(binh, private_table.pk, text="qua cửa sau")


@pytest.mark.parametrize("who_blocks", ["the host", "the guest"])
def test_a_block_between_the_host_and_a_watcher_closes_the_watchers_socket(
    server, players, password, private_table, who_blocks
) -> None:
    an, binh = players[:2]
    link = private.create_invite(an, private_table.pk)
    private.admit(binh, link.token)

    async def run() -> None:
        host = await _open(server, an, password, private_table.pk)
        watcher = await _open(server, binh, password, private_table.pk)
        blocker, blocked = (an, binh) if who_blocks == "the host" else (binh, an)
        await asyncio.to_thread(social.block_user, blocker, blocked)
        assert await _closed_with(watcher) == CLOSE_FORBIDDEN
        assert (await host.request(type="ping"))["type"] == "ok"  # the host stays
        assert await _refused_on_connect(server, binh, password, private_table.pk) == 4403
        await host.close()

    run_async(run())
