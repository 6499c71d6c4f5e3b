"""A storm of arriving sockets (every player of a killed process reconnecting at once) is
let in a few at a time per process, so each arrival runs through to its snapshot instead
of every step of every socket queueing behind every other's (games.consumers,
``ARRIVALS_AT_ONCE``)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from games import consumers
from games.consumers import TableConsumer
from tests.games.test_table_socket import _open
from tests.support.wsclient import run_async

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("own_socket_threads"),
]


def test_a_storm_of_sockets_is_let_in_a_few_at_a_time_and_every_one_gets_its_snapshot(
    players: list[Any], table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(consumers, "ARRIVALS_AT_ONCE", 2)
    arriving, most, done = [0], [0], []
    original_arrival = consumers._Consumer._arrival
    original_arrive = TableConsumer._arrive

    async def counted(self: Any, message: dict[str, Any]) -> None:
        arriving[0] += 1
        most[0] = max(most[0], arriving[0])
        try:
            await original_arrival(self, message)
        finally:
            arriving[0] -= 1
            done.append(time.monotonic())

    def slow_arrive(self: Any) -> Any:
        time.sleep(0.05)  # a snapshot that takes a while: the arrivals would overlap
        return original_arrive(self)

    monkeypatch.setattr(consumers._Consumer, "_arrival", counted)
    monkeypatch.setattr(TableConsumer, "_arrive", slow_arrive)

    async def storm() -> list[dict[str, Any]]:
        opened = await asyncio.gather(*(_open(players[i % 4], table) for i in range(8)))
        for socket, _snapshot in opened:
            await socket.disconnect()
        return [snapshot for _socket, snapshot in opened]

    snapshots = run_async(storm())
    assert [s["type"] for s in snapshots] == ["snapshot"] * 8
    assert all(s["table"] == table.pk for s in snapshots)
    assert most[0] == 2  # never more than the limit between the accept and the snapshot
    assert len(done) == 8


def test_a_process_lets_in_twice_as_many_sockets_at_once_as_it_has_handshake_threads() -> None:
    from django.conf import settings

    assert consumers.ARRIVALS_AT_ONCE == 2 * settings.HANDSHAKE_THREADS


def test_each_event_loop_has_its_own_admission() -> None:
    async def slots() -> Any:
        return consumers.arrival_slots()

    first, second = asyncio.run(slots()), asyncio.run(slots())
    assert first is not second
