"""Bot tables under load: N bot-only tables play continuously on real Celery workers.

Run: /work/main/.venv/bin/python benchmarks/bench_bots.py [--tables 50] [--seconds 60]
         [--workers 1] [--pool prefork] [--concurrency 4] [--keep]

On a scratch database (``maubinh_bench_bots_<pid>`` on the dev PostgreSQL, or --database-url)
and a Redis database it flushes first (--redis-url, default db 11): migrate, start the
worker(s) (the first with beat, for the sweeper), ``start_bot_tables --tables N``, let
the countdowns deal, then count the rounds settled in a window of --seconds. Then
``start_bot_tables --stop``, wait for the running rounds to settle, and run
``ledger_check`` (the exit code is its exit code). The scratch database is dropped unless
--keep. Prints rounds per minute, per table, round length and late (unarranged) bots.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import psycopg
import redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import scratchdb
from tests.support import processes
from tests.support.processes import ROOT, celery_worker, site_env

DEV_DATABASE = "postgres://maubinh:maubinh@127.0.0.1:5432/maubinh"


@contextlib.contextmanager
def scratch_database(server_url: str, keep: bool) -> Iterator[str]:
    name = f"maubinh_bench_bots_{os.getpid()}"
    scratchdb.recreate(server_url, name, migrated=True)
    try:
        yield scratchdb.database_url(server_url, name)
    finally:
        if not keep:
            scratchdb.recreate(server_url, name, drop_only=True)


def manage(env: dict[str, str], *args: str) -> str:
    done = processes.manage(env, *args)
    if done.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--pool", default="prefork", choices=["prefork", "threads", "solo"])
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--database-url", default="", help="use this database, not a scratch one")
    parser.add_argument("--base-url", default=DEV_DATABASE, help="server for the scratch db")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--logs", default="test-artifacts/bench_bots")
    options = parser.parse_args()

    logs = ROOT / options.logs
    logs.mkdir(parents=True, exist_ok=True)
    redis.Redis.from_url(options.redis_url).flushdb()
    with contextlib.ExitStack() as exits:
        url = options.database_url or exits.enter_context(
            scratch_database(options.base_url, options.keep)
        )
        env = site_env(DATABASE_URL=url, REDIS_URL=options.redis_url, LOG_LEVEL="WARNING")
        print(
            f"database {urlparse(url).path[1:]}, redis {options.redis_url}, "
            f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        manage(env, "migrate", "--noinput", "-v0")
        for index in range(options.workers):
            name = f"bench{index + 1}"
            exits.enter_context(
                celery_worker(
                    env,
                    logs / f"{name}.log",
                    name=name,
                    beat=logs / f"{name}-beat" if index == 0 else None,
                    pool=options.pool,
                    concurrency=options.concurrency,
                )
            )
        print(
            f"{options.workers} worker(s), pool {options.pool}, concurrency "
            f"{options.concurrency}; opening {options.tables} bot-only tables...",
            flush=True,
        )
        opened = time.monotonic()
        manage(env, "start_bot_tables", "--tables", str(options.tables))
        print(f"  opened and seated in {time.monotonic() - opened:.1f} s", flush=True)
        with psycopg.connect(url, autocommit=True) as db:
            # Let the first countdowns (5 s) run out before the window opens.
            time.sleep(8)
            started = db.execute("SELECT now()").fetchone()[0]  # type: ignore[index]
            time.sleep(options.seconds)
            ended = db.execute("SELECT now()").fetchone()[0]  # type: ignore[index]
            window = (ended - started).total_seconds()
            rounds, players, unarranged, length = db.execute(
                """
                SELECT count(DISTINCT r.id), count(p.id),
                       count(p.id) FILTER (WHERE p.arrangement IS NULL),
                       avg(extract(epoch FROM r.settled_at - r.dealt_at))
                FROM games_round r JOIN games_roundplayer p ON p.round_id = r.id
                WHERE r.state = 'settled' AND r.settled_at >= %s AND r.settled_at < %s
                """,
                (started, ended),
            ).fetchone()  # type: ignore[misc]
            per_minute = rounds * 60 / window
            load = os.getloadavg()[0]
            print(f"rounds settled in {window:.1f} s: {rounds} (load average {load:.1f})")
            print(
                f"rounds/minute: {per_minute:.1f}  "
                f"({per_minute / options.tables:.2f} per table per minute)"
            )
            print(
                f"mean deal-to-settlement {float(length or 0):.1f} s; "
                f"{unarranged} of {players} hands unarranged at the deadline"
            )
            manage(env, "start_bot_tables", "--stop")
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                live = db.execute(
                    "SELECT count(*) FROM games_round WHERE state IN ('arranging', 'showdown')"
                ).fetchone()[0]  # type: ignore[index]
                if live == 0:
                    break
                time.sleep(1)
            print(f"rounds still running after --stop: {live}")
        check = processes.manage(env, "ledger_check")
        print("ledger_check:")
        print(check.stdout.rstrip() or check.stderr.rstrip())
        return check.returncode


if __name__ == "__main__":
    raise SystemExit(main())
