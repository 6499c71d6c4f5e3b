"""The benchmarks' load generator times the servers, not itself (benchmarks/tables/loadgen.py):
the heap built before the play stays out of the collector's passes, the players' loop lag is
measured, and a player keeps only the messages it may still wait for."""

from __future__ import annotations

import asyncio
import gc
import time

from benchmarks.tables.loadgen import LoadGenerator, loop_lag, players_heap_frozen
from tests.support.wsclient import Player


def test_the_heap_built_before_the_play_is_out_of_the_collectors_passes_until_it_ends() -> None:
    with players_heap_frozen():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_the_players_loop_lag_shows_a_stall_of_their_own() -> None:
    generator = LoadGenerator()

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
