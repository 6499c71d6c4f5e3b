"""Timer workers ride out broker and database faults by themselves, and rounds go on."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from celery import Celery
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Round, RoundState
from tests.support import live
from tests.support.processes import celery_worker, site_env
from tests.support.redisserver import REDIS_SERVER, private_redis
from tests.support.services import TEST_REDIS_URL

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(REDIS_SERVER is None, reason="no redis-server to start a private Redis"),
]


def _wait_for(check, timeout: float, what: str, log) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what}\n{log.read_text()[-4000:]}"
        time.sleep(0.2)


def _round_dealt_to_two(players, name: str) -> Round:  # type: ignore[no-untyped-def]
    """A round dealt at a new table to two seated players: 30 s to arrange, 2 s of reveal."""
    table = services.create_table(
        players[0],
        name=name,
        stake=10,
        rules_overrides={"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 60},
    )
    for player in players[:2]:
        services.sit(player, table.pk)
    return services.start_round(players[0], table.pk)


def test_a_worker_holding_timers_survives_an_empty_redis_restart_and_rounds_go_on(
    tmp_path, players
):
    round_ = _round_dealt_to_two(players, "Bàn Redis")
    deadline = timezone.now() + timedelta(seconds=15)
    Round.objects.filter(pk=round_.pk).update(deadline=deadline)

    with private_redis(tmp_path) as server:
        env = site_env(
            DATABASE_URL=live.test_database_url(), REDIS_URL=server.url, CELERY_LOG_LEVEL="INFO"
        )
        client = Celery(
            set_as_current=False,
            broker=server.url,
            broker_transport_options={"global_keyprefix": f"{env['REDIS_PREFIX']}:"},
        )
        log = tmp_path / "worker.log"
        # Prefork, as in production; beat in the same process runs the sweeper.
        with celery_worker(
            env, log, beat=tmp_path / "beat", pool="prefork", concurrency=2
        ) as worker:
            # The round's timer waits in the worker, unacknowledged, when Redis dies.
            client.send_task("games.advance_round", (round_.pk, "arranging", 1), eta=deadline)
            _wait_for(lambda: "games.advance_round[" in log.read_text(), 15, "no timer", log)
            server.restart_empty()
            back = time.time()
            _wait_for(lambda: worker.poll() is not None or _settled(round_.pk), 40, "", log)
            due = max(back, deadline.timestamp()) + 3 * 2  # three reveals, then settlement
            print(f"settled {time.time() - due:.1f} s after it was due")
            assert worker.poll() is None, f"the worker died:\n{log.read_text()[-4000:]}"
            # A second restart in the middle of the next step changes nothing.
            server.restart_empty(down_for=3.0)
            client.send_task("games.sweep")
            time.sleep(3)
            assert worker.poll() is None, f"the worker died:\n{log.read_text()[-4000:]}"
    assert _settled(round_.pk)


def _settled(round_id: int) -> bool:
    return Round.objects.filter(pk=round_id, state=RoundState.SETTLED).exists()


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    return int(pid)


def _terminate_other_sessions(spare: int = 0) -> int:
    """pg_terminate_backend on every session of the test database but this thread's and
    ``spare``: the worker's."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), %s)",
            [spare],
        )
        (count,) = cursor.fetchone()
    return int(count)


@pytest.mark.redis
def test_a_round_advances_on_time_while_the_database_kills_the_workers_connections(
    tmp_path, players
):
    round_ = _round_dealt_to_two(players, "Bàn PostgreSQL")
    env = site_env(
        DATABASE_URL=live.test_database_url(), REDIS_URL=TEST_REDIS_URL, CELERY_LOG_LEVEL="INFO"
    )
    client = Celery(
        set_as_current=False,
        broker=TEST_REDIS_URL,
        broker_transport_options={"global_keyprefix": f"{env['REDIS_PREFIX']}:"},
    )
    log = tmp_path / "worker.log"
    # No beat: no sweeper to hide a dropped timer step.
    with celery_worker(env, log) as worker:
        client.send_task("games.sweep")  # the worker opens its database connection
        _wait_for(lambda: "games.sweep[" in log.read_text(), 15, "no sweep", log)
        time.sleep(0.5)
        assert _terminate_other_sessions() >= 1
        deadline = timezone.now() + timedelta(seconds=2)
        Round.objects.filter(pk=round_.pk).update(deadline=deadline)
        client.send_task("games.advance_round", (round_.pk, "arranging", 1), eta=deadline)

        # Keep killing the worker's sessions through the showdown: between timer steps
        # (the health check reconnects) and during them (the step is retried).
        stop = threading.Event()
        tests_own = _backend_pid()

        def keep_killing() -> None:
            try:
                while not stop.wait(1.5):
                    _terminate_other_sessions(spare=tests_own)
            finally:
                connection.close()

        killer = threading.Thread(target=keep_killing, daemon=True)
        killer.start()
        try:
            # Arranging ends at the deadline; three reveals 2 s apart, then settlement.
            on_time = deadline.timestamp() + 3 * 2 + 6
            _wait_for(
                lambda: _settled(round_.pk),
                on_time - time.time(),
                "the round did not settle on time",
                log,
            )
        finally:
            stop.set()
            killer.join(timeout=10)
        # The showdown's own length: three reveals, then settlement.
        print(f"settled {time.time() - deadline.timestamp() - 3 * 2:.1f} s after it was due")
        assert worker.poll() is None
