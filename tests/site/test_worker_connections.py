"""A Celery worker keeps its PostgreSQL connection from one timer step to the next."""

from __future__ import annotations

import time

import psycopg
from celery import Celery

from tests.support import live
from tests.support.processes import celery_worker, site_env
from tests.support.services import TEST_REDIS_URL

pytestmark = live.MARKS


def _sessions_opened(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_worker_runs_twenty_timer_steps_on_one_database_connection(tmp_path):
    url = live.test_database_url()
    env = site_env(DATABASE_URL=url, REDIS_URL=TEST_REDIS_URL, CELERY_LOG_LEVEL="INFO")
    log = tmp_path / "worker.log"
    client = Celery(
        broker=TEST_REDIS_URL,
        broker_transport_options={"global_keyprefix": f"{env['REDIS_PREFIX']}:"},
    )
    with celery_worker(env, log):
        client.send_task("games.sweep")
        _wait_for_succeeded(log, 1)  # the worker has connected once
        time.sleep(1.5)  # PostgreSQL publishes session counts about once a second
        before = _sessions_opened(url)
        for _ in range(20):
            client.send_task("games.sweep")
        _wait_for_succeeded(log, 21)
        time.sleep(1.5)
        opened = _sessions_opened(url) - before
    # One for each look at the counter; Celery's default would open one per task.
    assert opened <= 2, f"{opened} new database sessions for 20 tasks"


def _wait_for_succeeded(log, count: int, timeout: float = 30) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while log.read_text().count("games.sweep[") < 2 * count:  # received + succeeded
        assert time.monotonic() < deadline, log.read_text()[-2000:]
        time.sleep(0.1)
