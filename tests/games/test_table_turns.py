"""A table's commands wait for their turn in the event loop, not on a command thread
(games.consumers.TableTurns): while one of a table's commands waits for the table's row
lock, the others of that table hold no thread, and another table's commands still run."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connections

from games import consumers
from games.consumers import TableConsumer, table_turns
from tests.games.test_table_socket import _open, _until
from tests.support.played import quick_table
from tests.support.stuck import table_locked_elsewhere
from tests.support.wsclient import run_async

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("own_socket_threads"),
]

THREADS = 2


@pytest.fixture
def two_command_threads(
    own_socket_threads: None, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Two command threads (the fixture own_socket_threads gives one), whose connections
    are closed afterwards, each on its own thread."""
    pool = ThreadPoolExecutor(max_workers=THREADS)
    monkeypatch.setattr(consumers, "_COMMAND_THREADS", pool)
    yield
    both = threading.Barrier(THREADS)

    def close() -> None:
        both.wait(timeout=10)  # one call on each thread
        connections.close_all()

    for done in [pool.submit(close) for _ in range(THREADS)]:
        done.result()
    pool.shutdown()


@pytest.mark.postgres
@pytest.mark.usefixtures("two_command_threads")
def test_another_tables_sit_runs_while_one_tables_commands_wait_for_its_lock(
    players: list[Any], table: Any, make_user: Any
) -> None:
    elsewhere = make_user("em")
    other_table = quick_table(make_user("giang"), name="Bàn khác")

    async def scenario() -> None:
        waiting = [await _open(player, table) for player in players[1:1 + THREADS]]  # fmt: skip
        other, _ = await _open(elsewhere, other_table)
        with table_locked_elsewhere(table.pk):
            # As many sit-downs at the locked table as there are threads: each would hold
            # a thread while it waits for the lock, and the other table's would wait too.
            for index, (socket, _snapshot) in enumerate(waiting):
                await socket.send_json_to({"type": "sit", "ref": f"w{index}"})
            await asyncio.sleep(0.2)
            await other.send_json_to({"type": "sit", "ref": "o"})
            reply = (await _until(other, lambda m: m.get("ref") == "o", timeout=30))[-1]
            assert reply["type"] == "ok", reply
        # The lock released: the locked table's sit-downs run, one after the other. Had
        # they held both threads, the other table's sit would have run only once they
        # gave up on the lock (DB_LOCK_TIMEOUT_MS: "busy").
        for index, (socket, _snapshot) in enumerate(waiting):
            reply = (await _until(socket, lambda m, r=f"w{index}": m.get("ref") == r))[-1]
            assert reply["type"] == "ok", reply
        assert len(table_turns()) == 0  # nobody in line: nothing kept
        for socket, _snapshot in [*waiting, (other, None)]:
            await socket.disconnect()

    run_async(scenario())


def test_every_game_command_but_a_ping_waits_for_its_tables_turn() -> None:
    # Each takes the table's row lock first (games.services): a new one must be listed.
    assert set(TableConsumer.HANDLERS) - {"ping"} == TableConsumer.TAKE_TURNS


def test_a_tables_commands_take_their_turns_in_the_order_they_came() -> None:
    async def scenario() -> list[int]:
        turns, order = table_turns(), []

        async def command(index: int) -> None:
            async with turns.turn(7):
                order.append(index)
                await asyncio.sleep(0.01)

        await asyncio.gather(*(command(index) for index in range(5)))
        assert len(turns) == 0
        return order

    assert asyncio.run(scenario()) == [0, 1, 2, 3, 4]
