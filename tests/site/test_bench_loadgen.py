"""The benchmarks' load generator times the servers, not itself (benchmarks/tables/loadgen.py):
its players run ahead of the servers on the cores while a server started meanwhile does not,
its loop's lag is measured, and a player keeps only the messages it may still wait for."""

from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
import threading
import time

from benchmarks.tables.loadgen import LoadGenerator, at_server_priority, loop_lag, players_first
from tests.support.wsclient import Player

PRINT_NICE = "import os; print(os.getpriority(os.PRIO_PROCESS, 0))"


def _nice_of_a_child() -> int:
    done = subprocess.run(
        [sys.executable, "-c", PRINT_NICE], capture_output=True, text=True, check=True
    )
    return int(done.stdout)


def test_the_players_run_ahead_of_the_servers_and_a_server_started_meanwhile_does_not() -> None:
    before = os.getpriority(os.PRIO_PROCESS, 0)
    server_nice: list[int] = []
    with players_first(before - 5) as generator:
        if generator.nice is None:  # not permitted (not root): left level with the servers
            assert os.getpriority(os.PRIO_PROCESS, 0) == before
        else:
            assert generator.nice == before - 5
            assert _nice_of_a_child() == before - 5  # the players' arranging pool, say

        def start_a_server() -> None:  # as bench_tables' cold restart starts daphne
            at_server_priority(before)
            server_nice.append(_nice_of_a_child())

        thread = threading.Thread(target=start_a_server)
        thread.start()
        thread.join()
        assert gc.get_freeze_count() > 0  # the heap built before the play: not collected
    assert server_nice == [before]
    assert os.getpriority(os.PRIO_PROCESS, 0) == before
    assert gc.get_freeze_count() == 0


def test_the_players_loop_lag_shows_a_stall_of_their_own() -> None:
    generator = LoadGenerator(None)

    async def stall() -> None:
        watching = asyncio.ensure_future(loop_lag(generator))
        await asyncio.sleep(0.1)
        time.sleep(0.3)  # the loop held, as a long garbage collection holds it
        await asyncio.sleep(0.1)
        watching.cancel()

    asyncio.run(stall())
    assert max(generator.lags) >= 0.25


def test_a_player_forgets_what_it_took_and_still_finds_what_came_after() -> None:
    async def play() -> None:
        player = Player("http://127.0.0.1:1", "sessionid=x", 1, "p")
        for kind, round_id in [
            ("cards", 1), ("reveal", 1), ("submission", 1), ("settled", 1), ("cards", 2),
        ]:  # fmt: skip
            player.received.append({"type": kind, "round": round_id})
        mine = await player.wait_for(lambda m: m["type"] == "submission")
        settled = await player.wait_for(lambda m: m["type"] == "settled")
        player.forget_through(settled)
        assert [m["type"] for m in player.received] == ["cards"]
        # The next round's cards, which came before the forgetting, are still there once.
        assert (await player.wait_for(lambda m: m["type"] == "cards"))["round"] == 2
        player.received.append({"type": "cards", "round": 3})
        assert (await player.wait_for(lambda m: m["type"] == "cards"))["round"] == 3
        player.forget_through(mine)  # no longer held: nothing to forget
        assert len(player.received) == 2

    asyncio.run(play())
