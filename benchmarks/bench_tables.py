"""Live tables under load: N tables of 4 scripted websocket players against the real stack.

    .venv/bin/python benchmarks/bench_tables.py [--tables 100] [--seconds 60] [--servers 2]
        [--ramp 10] [--warmup 30]

Creates a scratch PostgreSQL database, starts daphne processes and a Celery worker (with
beat) on Redis, seats 4 scripted players at each table (sessions made directly, so no
password hashing), and plays rounds continuously: every player arranges with auto-arrange
(in a client-side process pool) and submits after a short think. Tables open one after
another over ``--ramp`` seconds; after ``--warmup`` seconds it measures for ``--seconds``:
rounds per minute, and the latency from sending a submission to receiving its broadcast
(the player's own ``submission`` event) and to the command's ``ok``. The warm-up figures
(every table sitting down and dealing its first round) are printed apart. Then it runs
ledger_check. Measures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from tempfile import mkdtemp
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scratchdb import database_url, recreate  # noqa: E402
from tests.processes import celery_worker, daphne, site_env  # noqa: E402
from tests.wsclient import Player  # noqa: E402

BENCH_DB = "maubinh_bench_tables"
SERVER = os.environ.get("TEST_DATABASE_URL", "postgres://maubinh:maubinh@127.0.0.1:5432/maubinh")
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")


def _setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def _prepare(tables: int) -> list[tuple[int, list[str]]]:
    """Migrate, create players and tables; return (table id, 4 session keys) per table."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from accounts.models import User
    from games import services as games
    from ledger.services import grant_signup_bonus

    call_command("migrate", verbosity=0)
    layout = []
    for t in range(tables):
        # No password (so no hashing); the session below logs them in.
        users = [User.objects.create_user(username=f"t{t}p{k}") for k in range(4)]
        for user in users:
            grant_signup_bonus(user)
        table = games.create_table(
            users[0],
            name=f"Bench {t}",
            stake=10,
            rules_overrides={"arrange_seconds": 60, "reveal_seconds": 2, "start_seconds": 5},
        )
        keys = []
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            keys.append(session.session_key)
        layout.append((table.pk, keys))
    return layout


def _arrange(cards: list[str]) -> list[list[str]]:
    from games.rules import Rules, format_cards, parse_cards
    from games.rules.arrange import suggest

    best = suggest(parse_cards(cards), Rules.preset("portal"), n=1)[0]
    return [format_cards(part) for part in best.chi]


class Stats:
    def __init__(self, measure_from: float, stop_at: float) -> None:
        self.measure_from, self.stop_at = measure_from, stop_at
        self.latencies: list[float] = []
        self.replies: list[float] = []
        self.warmup: list[float] = []
        self.rounds = 0
        self.errors: dict[str, int] = {}

    def record(self, sent: float, reply: dict[str, Any], broadcast: dict[str, Any]) -> None:
        latency = (broadcast["_at"] - sent) * 1000
        if sent < self.measure_from:
            self.warmup.append(latency)
        else:
            self.latencies.append(latency)
            self.replies.append((reply["_at"] - sent) * 1000)


async def _player(
    client: Player, is_host: bool, stats: Stats, delay: float, pool: ProcessPoolExecutor
) -> None:
    loop = asyncio.get_running_loop()
    stop_at = stats.stop_at
    await asyncio.sleep(delay)
    await client.connect()
    await client.request(type="sit")
    if is_host:
        await client.request(type="start")
    while time.monotonic() < stop_at:
        try:
            dealt = await client.wait_for(lambda m: m["type"] == "cards", timeout=40)
        except TimeoutError:
            if is_host:
                await client.request(type="start")
            continue
        chi = await loop.run_in_executor(pool, _arrange, dealt["cards"])
        await asyncio.sleep(random.uniform(0.5, 3.0))  # thinking
        sent = time.monotonic()
        reply = await client.request(type="submit", round=dealt["round"], chi=chi)
        if reply["type"] == "error":
            stats.errors[reply["code"]] = stats.errors.get(reply["code"], 0) + 1
            continue
        mine = await client.wait_for(
            lambda m, r=dealt["round"]: m["type"] == "submission" and m["round"] == r, timeout=30
        )
        stats.record(sent, reply, mine)
        await client.wait_for(lambda m: m["type"] == "settled", timeout=60)
        if is_host and stats.measure_from <= time.monotonic() < stop_at:
            stats.rounds += 1
    await client.close()


async def _run(
    bases: list[str], layout: list[tuple[int, list[str]]], args: argparse.Namespace
) -> Stats:
    now = time.monotonic()
    stats = Stats(now + args.warmup, now + args.warmup + args.seconds)
    with ProcessPoolExecutor(max_workers=1) as pool:
        tasks = []
        clients = []
        for index, (table_id, keys) in enumerate(layout):
            delay = args.ramp * index / len(layout)
            for seat, key in enumerate(keys):
                base = bases[(index + seat) % len(bases)]
                client = Player(base, f"sessionid={key}", table_id, f"t{index}p{seat}")
                clients.append(client)
                tasks.append(_player(client, seat == 0, stats, delay, pool))
        results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException)]
    if failures:
        print(f"{len(failures)} players stopped early, e.g. {failures[0]!r}")
        if os.environ.get("BENCH_DEBUG"):
            shown = 0
            for client, result in zip(clients, results, strict=True):
                if not isinstance(result, BaseException) or shown > 3:
                    continue
                shown += 1
                t0 = client.received[0]["_at"] if client.received else 0
                print(client.name, repr(result)[:200])
                print(
                    [
                        (m["type"], m.get("version"), round(m["_at"] - t0, 2))
                        for m in client.received
                    ][:30]
                )
    return stats


def _percentiles(values: list[float]) -> str:
    if not values:
        return "(no submissions)"
    ordered = sorted(values)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return (
        f"over {len(ordered)} submissions: p50 {pct(0.5):.1f} ms, p95 {pct(0.95):.1f} ms, "
        f"p99 {pct(0.99):.1f} ms, max {ordered[-1]:.1f} ms, mean {statistics.fmean(ordered):.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60, help="measured, after the warm-up")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--ramp", type=float, default=10, help="tables open over this time")
    parser.add_argument("--warmup", type=float, default=30, help="seconds not measured")
    args = parser.parse_args()

    recreate(SERVER, BENCH_DB)
    logs = Path(mkdtemp(prefix="bench-tables-"))
    env = site_env(
        DATABASE_URL=database_url(SERVER, BENCH_DB),
        REDIS_URL=REDIS,
        LOG_LEVEL="WARNING",
        CELERY_LOG_LEVEL=os.environ.get("CELERY_LOG_LEVEL", "WARNING"),
    )
    try:
        _setup_django(env)
        started = time.monotonic()
        layout = _prepare(args.tables)
        print(f"prepared {args.tables} tables in {time.monotonic() - started:.1f} s")
        with contextlib.ExitStack() as stack:
            bases = [
                stack.enter_context(daphne(env, logs / f"daphne{i}.log"))
                for i in range(args.servers)
            ]
            stack.enter_context(
                celery_worker(
                    env,
                    logs / "worker.log",
                    beat=logs / "beat",
                    pool=os.environ.get("BENCH_POOL", "prefork"),
                    concurrency=int(os.environ.get("BENCH_CONCURRENCY", "3")),
                )
            )
            stats = asyncio.run(_run(bases, layout, args))

        print(f"tables: {args.tables}, players: {4 * args.tables}, daphne: {args.servers}")
        print(
            f"warm-up ({args.warmup:.0f} s, tables opening over {args.ramp:.0f} s): "
            f"submission -> broadcast {_percentiles(stats.warmup)}"
        )
        rate = stats.rounds / args.seconds * 60
        print(f"measured {args.seconds:.0f} s: {stats.rounds} rounds = {rate:.0f}/min")
        print(f"submission -> broadcast {_percentiles(stats.latencies)}")
        print(f"submission -> its ok    {_percentiles(stats.replies)}")
        if stats.errors:
            print(f"refused submissions: {stats.errors}")
        check = subprocess.run(
            [sys.executable, "manage.py", "ledger_check"], cwd=ROOT, env=env, capture_output=True,
            text=True,
        )  # fmt: skip
        print(f"ledger_check exit {check.returncode}: {check.stdout.strip().splitlines()[-1:]}")
        print(f"logs: {logs}")
    finally:
        from django.db import connections

        connections.close_all()
        if not os.environ.get("BENCH_KEEP_DB"):
            recreate(SERVER, BENCH_DB, drop_only=True)


if __name__ == "__main__":
    main()
