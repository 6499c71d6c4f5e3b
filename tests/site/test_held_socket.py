"""A daphne restart behind a held listening socket (deploy/systemd/maubinh-daphne@.socket):
a player who reconnects while no daphne runs waits in the socket's queue and is served by
the next daphne, instead of being refused and backing off. The real daphne, PostgreSQL and
Redis; the test holds the socket as systemd does."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from pathlib import Path
from typing import Any

import pytest

from games import services
from tests.support.processes import (
    LISTEN_BACKLOG,
    ROOT,
    daphne_process,
    listening_socket,
    stop,
)
from tests.support.wsclient import Player, login, run_async


@pytest.fixture
def host(make_user):  # type: ignore[no-untyped-def]
    return make_user("an")


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_player_reconnecting_while_daphne_is_down_is_served_by_the_next_one_not_refused(
    live_env: dict[str, str], tmp_path: Path, host: Any, password: str
) -> None:
    table = services.create_table(host, name="Bàn giữ cổng", stake=10)
    with contextlib.closing(listening_socket()) as listener:
        with daphne_process(live_env, tmp_path / "daphne1.log", listener=listener) as (base, first):
            cookie = login(base, host.username, password)
            stop(first, signal.SIGKILL)

        async def scenario() -> None:
            player = Player(base, cookie, table.pk, host.username)
            # Nothing serves the port now: the connection waits in the held socket's queue.
            reconnecting = asyncio.ensure_future(player.connect())
            await asyncio.sleep(1.0)
            assert not reconnecting.done(), reconnecting  # neither refused nor answered
            with daphne_process(live_env, tmp_path / "daphne2.log", listener=listener):
                snapshot = await asyncio.wait_for(reconnecting, timeout=30)
                assert snapshot["table"] == table.pk
                await player.close()

        run_async(scenario())


def test_the_held_socket_queues_as_many_connections_as_the_systemd_unit_allows() -> None:
    unit = (ROOT / "deploy" / "systemd" / "maubinh-daphne@.socket").read_text()
    assert f"Backlog={LISTEN_BACKLOG}" in unit
    with contextlib.closing(listening_socket()) as listener:
        # 400 connections (a 100-table storm on one process) queue with nobody accepting:
        # none refused, none dropped (a queue of 50 drops the rest, and their connect times out).
        port = listener.getsockname()[1]
        clients = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(400)]
        for client in clients:
            client.close()
