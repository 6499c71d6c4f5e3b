"""Presence under the faults that leaked the old counter, on the real stack: daphne killed
with SIGKILL, and restarted. PostgreSQL, Redis, a Celery worker with beat (the sweeper).

The servers run with ``PRESENCE_TIMEOUT_SECONDS=5`` instead of 30 to keep the tests short;
the mechanism is the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import services
from tests.support import live
from tests.support.processes import celery_worker, daphne_process, free_port, server_env, stop
from tests.support.services import TEST_REDIS_URL
from tests.support.wsclient import Player, login, run_async

pytestmark = live.MARKS

TIMEOUT = 5
SWEEP = 2  # the beat's games.sweep period
SLACK = 4  # a loaded machine


@pytest.fixture
def env() -> dict[str, str]:
    return server_env(
        DATABASE_URL=live.test_database_url(),
        REDIS_URL=TEST_REDIS_URL,
        PRESENCE_TIMEOUT_SECONDS=str(TIMEOUT),
    )


@pytest.fixture
def worker(env: dict[str, str], tmp_path: Path) -> Iterator[None]:
    with celery_worker(env, tmp_path / "w1.log", beat=tmp_path / "w1-beat"):
        yield


def _table(host: Any) -> Any:
    return services.create_table(
        host, name="Bàn vắng", stake=10, rules_overrides={"start_seconds": 60}
    )


async def _seated(base: str, user: Any, password: str, table_id: int) -> tuple[Player, int]:
    player = Player(base, login(base, user.username, password), table_id, user.username)
    await player.connect()
    reply = await player.request(type="sit")
    assert reply["type"] == "ok", reply
    return player, reply["position"]


def _offline(position: int) -> Any:
    return lambda m: m["type"] == "presence" and m["position"] == position and not m["online"]


def test_a_player_whose_server_was_killed_is_stood_up_at_the_first_deal_after_the_timeout(
    env, worker, tmp_path, players, password
):
    host, other, gone = players[:3]
    table = _table(host)
    with (
        daphne_process(env, tmp_path / "daphne1.log") as (base, _),
        daphne_process(env, tmp_path / "daphne2.log") as (doomed_base, doomed),
    ):

        async def scenario() -> None:
            a, _ = await _seated(base, host, password, table.pk)
            b, _ = await _seated(base, other, password, table.pk)
            _c, position = await _seated(doomed_base, gone, password, table.pk)
            # Nobody pings: quiet sockets stay present past the timeout, as their
            # servers renew them.
            await asyncio.sleep(TIMEOUT + 1)
            killed = time.monotonic()
            # No close, no disconnect(): the socket just dies with its process.
            await asyncio.to_thread(stop, doomed, signal.SIGKILL)
            await a.wait_for(_offline(position), timeout=TIMEOUT + 2 * SWEEP + SLACK)
            noticed = time.monotonic() - killed
            assert TIMEOUT - 2 <= noticed <= TIMEOUT + 2 * SWEEP + SLACK
            reply = await a.request(type="start")
            assert reply["type"] == "ok", reply
            dealt = await a.wait_for(lambda m: m["type"] == "round_started")
            left = await a.wait_for(lambda m: m["type"] == "seat_left")
            assert sorted(p["user"] for p in dealt["players"]) == [host.pk, other.pk]
            assert (left["user"], left["reason"]) == (gone.pk, "away")
            for player in (a, b):
                await player.close()

        run_async(scenario())


def test_after_a_restart_a_player_who_came_back_and_left_is_offline_and_stood_up(
    env, worker, tmp_path, players, password
):
    host, other, returner = players[:3]
    table = _table(host)
    port = free_port()
    with (
        daphne_process(env, tmp_path / "daphne1.log") as (base, _),
        contextlib.ExitStack() as exits,
    ):
        restarting_base, restarting = exits.enter_context(
            daphne_process(env, tmp_path / "daphne2.log", port)
        )

        async def scenario() -> None:
            a, _ = await _seated(base, host, password, table.pk)
            b, _ = await _seated(base, other, password, table.pk)
            c, position = await _seated(restarting_base, returner, password, table.pk)
            await c.request(type="sit")  # a repeated sit, as a double click sends
            await asyncio.sleep(1)
            await asyncio.to_thread(stop, restarting, signal.SIGKILL)
            await asyncio.to_thread(
                exits.enter_context, daphne_process(env, tmp_path / "daphne2-again.log", port)
            )
            cookie = login(restarting_base, returner.username, password)
            again = Player(restarting_base, cookie, table.pk, returner.username)
            snapshot = await again.connect()  # the page reconnects to the new process
            assert any(s["user"] == returner.pk for s in snapshot["seats"])
            await again.close()  # and is then closed for good
            closed = time.monotonic()
            await a.wait_for(_offline(position), timeout=TIMEOUT + 2 * SWEEP + SLACK)
            await asyncio.sleep(max(0.0, TIMEOUT + 0.5 - (time.monotonic() - closed)))
            reply = await a.request(type="start")
            assert reply["type"] == "ok", reply
            dealt = await a.wait_for(lambda m: m["type"] == "round_started")
            assert sorted(p["user"] for p in dealt["players"]) == [host.pk, other.pk]
            for player in (a, b):
                await player.close()

        run_async(scenario())
