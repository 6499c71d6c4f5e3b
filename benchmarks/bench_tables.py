"""Live tables under load: N tables of 4 scripted websocket players against the real stack.

    .venv/bin/python benchmarks/bench_tables.py [--tables 100] [--seconds 60] [--servers 2]
        [--ramp 10] [--warmup 30] [--after 30] [--no-restart] [--stagger 0]
        [--deals-per-second 0] [--read 2 7] [--no-ready] [--cold-restart]

Creates a scratch PostgreSQL database, starts daphne processes and a Celery worker (with
beat) on Redis, seats 4 scripted players at each table (sessions made directly, so no
password hashing), and plays rounds continuously: every player arranges (strongest chi 1 first,
in a client-side process pool) and submits after a short think, and after the settlement
reads the summary for ``--read`` seconds (2 to 7) and says ``ready``: the fourth to say it
has the next round dealt at once, about 6 s after the settlement, where the summary alone
holds it 12 s (``--no-ready``: never say it). Tables open one after
another over ``--ramp`` seconds (400 sockets within 10 s at 100 tables); after
``--warmup`` seconds it measures for ``--seconds``: rounds per minute, the latency from
sending a submission to receiving its broadcast (the player's own ``submission`` event)
and to the command's ``ok``, the CPU the daphne and worker processes spent per round
(from /proc), and beside them the CPU of the load generator itself, PostgreSQL and
Redis (they share the machine) and what each of them spent in each storm (the first
connections, the reconnection after the kill: until every socket has its snapshot), the
database queries per round by step and how late the
timer tasks started after their eta (both counted in the server processes,
``games.querycount``), and how evenly the deals were spread over the seconds (tables
dealt together submit together). ``--stagger S``: each table's players sit down together
at a random moment up to S seconds after their sockets opened. Then, unless
``--no-restart``, every serving daphne process is killed with SIGKILL, and its prefork
parent (maubinh_site/prefork.py, as deployed) forks a new one: all its sockets reconnect at
once (the storm a crash makes in production) and must play on: every table settles a round
within ``--after`` seconds (``--cold-restart``: the parents are killed too and every daphne
started afresh, the storm of a restart from nothing). Then it runs ledger_check.

It prints the load average before the run and how fast the machine's cores are
(``benchmarks/speed.py``: the same command's figures follow the machine), and exits
non-zero if any part of its load did not run: a connection that failed (a handshake, or
no snapshot within 20 s; a refused TCP connection while a server restarts is retried, not
counted), a player that stopped early, a refused submission, a table that did not play
on after the restart, an error in a server's log, or a ledger_check failure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from tempfile import mkdtemp
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scratchdb import database_url, recreate  # noqa: E402
from benchmarks.speed import describe as machine_speed  # noqa: E402
from benchmarks.tables.loadgen import LoadGenerator, loop_lag, players_heap_frozen  # noqa: E402
from benchmarks.tables.measures import Gauges, Stats, cpu_ms, cpu_ms_named, query_totals  # noqa: E402
from benchmarks.tables.players import BenchPlayer  # noqa: E402
from benchmarks.tables.report import fail_loudly, log_sizes, report  # noqa: E402
from tests.support.processes import (  # noqa: E402
    ASGI_APP,
    celery_worker,
    collect_static,
    compile_bytecode,
    daphne_process,
    listening_socket,
    manage,
    serving_processes,
    site_env,
)
from tests.support.sessions import session_key  # noqa: E402

READ_SECONDS = (2.0, 7.0)
"""How long a player reads a round's summary before saying ready, at least and at most: the
last of a table's four says it about 6 s after the settlement, so a round lasts about 15 s
(the issue's load, #28) where waiting out the 12 s summary makes it 21 s."""

# One scratch database per run: two runs on one machine never drop each other's.
BENCH_DB = f"maubinh_bench_tables_{os.getpid()}"
SERVER = os.environ.get("TEST_DATABASE_URL", "postgres://maubinh:maubinh@127.0.0.1:5432/maubinh")
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")


def _setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def _prepare(tables: int) -> list[tuple[int, list[str]]]:
    """Migrate, create players and tables; return (table id, 4 session keys) per table."""
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
        layout.append((table.pk, [session_key(user) for user in users]))
    return layout


# The server processes -------------------------------------------------------------------


class Servers:
    """The daphne processes, on fixed ports, that can be killed and started afresh.

    This process holds their listening sockets, as the systemd socket units do in
    production (docs/deploy.md, "Processes"): while the daphne processes are down, the
    players' connections wait in the socket's queue and the fresh ones take them."""

    def __init__(self, env: dict[str, str], logs: Path, count: int, app: str = ASGI_APP) -> None:
        self.env, self.logs, self.app = env, logs, app
        self.exits = contextlib.ExitStack()
        self.listeners = [self.exits.enter_context(listening_socket()) for _ in range(count)]
        self.ports = [int(sock.getsockname()[1]) for sock in self.listeners]
        self.bases = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.procs: list[subprocess.Popen[bytes]] = []
        self.generation = 0

    def start(self) -> None:
        """Start one daphne per port (in parallel: they come up together, as after a crash)."""
        compile_bytecode()  # once, as a deploy does (every fresh daphne then starts from it)
        if self.app == ASGI_APP:
            collect_static(self.env)  # once, before the threads
        stacks = [contextlib.ExitStack() for _ in self.listeners]
        procs: list[Any] = [None] * len(self.listeners)
        errors: list[BaseException] = []

        def one(i: int) -> None:
            log = self.logs / f"daphne{i}-{self.generation}.log"
            try:
                server = daphne_process(self.env, log, app=self.app, listener=self.listeners[i])
                procs[i] = stacks[i].enter_context(server)[1]
            except BaseException as exc:  # reported below, on the caller's thread
                errors.append(exc)

        threads = [threading.Thread(target=one, args=(i,)) for i in range(len(self.listeners))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for stack in stacks:
            self.exits.enter_context(stack)
        if errors:
            raise errors[0]
        self.procs = procs
        self.generation += 1

    def kill(self) -> None:
        """Every server gone, parents too: a restart from nothing (a deploy's, or the whole
        host's); ``start`` then starts them afresh."""
        for proc in self.procs:
            os.killpg(proc.pid, signal.SIGKILL)
        for proc in self.procs:
            proc.wait()

    def kill_serving(self) -> int:
        """Every serving process killed (a crash of each), their parents left to fork new
        ones from the site they imported (maubinh_site/prefork.py): how many were killed."""
        serving = [pid for proc in self.procs for pid in serving_processes(proc.pid)]
        for pid in serving:
            os.kill(pid, signal.SIGKILL)
        return len(serving)

    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs]


# The run --------------------------------------------------------------------------------


async def _run(
    servers: Servers,
    worker: subprocess.Popen[bytes],
    counts: Path,
    layout: list[tuple[int, list[str]]],
    args: argparse.Namespace,
    generator: LoadGenerator,
) -> tuple[Stats, Gauges, list[tuple[BenchPlayer, BaseException]]]:
    lag = asyncio.ensure_future(loop_lag(generator))
    now = time.monotonic()
    measure_from = now + args.warmup
    measure_until = measure_from + args.seconds
    restart_at = None if args.no_restart else measure_until
    stats = Stats(
        measure_from, measure_until, measure_until + (0 if args.no_restart else args.after),
        restart_at, read=reading(args),
    )  # fmt: skip
    gauges = Gauges(generator=generator)

    def cpu_now() -> dict[str, float]:
        return {
            "daphne": sum(cpu_ms(pid) for pid in servers.pids()),
            "worker": cpu_ms(worker.pid),
            # The load generator itself (this process and its arranging pool), PostgreSQL's
            # backends and Redis: they share the machine's two cores with the site.
            "load generator": cpu_ms(os.getpgrp()),
            "postgres": cpu_ms_named("postgres"),
            "redis": cpu_ms_named("redis-server"),
        }

    def sample() -> None:
        for name, ms in cpu_now().items():
            gauges.cpu.setdefault(name, []).append(ms)
        gauges.queries.append(query_totals(counts))

    async def storm(
        name: str, served: list[float], began: float, started: Awaitable[None] | None = None
    ) -> None:
        """The CPU each part spends until every player's socket has its snapshot (the
        daphne processes' share of it a socket: where a storm's time goes). After the kill
        the fresh daphne processes' CPU, their start included, is all theirs: read once
        ``started`` has told their pids."""
        before = cpu_now()
        if started is not None:  # started afresh: the processes counted are new ones
            before["daphne"] = 0.0
        sockets = 4 * len(layout)
        while len(served) < sockets and time.monotonic() < began + 60:
            await asyncio.sleep(0.05)
        lasted = time.monotonic() - began
        if started is not None:
            await started
        after = cpu_now()
        used = {part: after[part] - before[part] for part in after}
        gauges.storms[name] = (len(served), lasted, used)

    first_storm = asyncio.ensure_future(storm("the first connections", stats.handshakes, now))

    async def conduct() -> None:
        await asyncio.sleep(measure_from - time.monotonic())
        sample()
        await asyncio.sleep(measure_until - time.monotonic())
        sample()
        if restart_at is not None and args.cold_restart:
            print(
                f"killing {len(servers.procs)} daphne processes with their prefork parents "
                "(SIGKILL), starting fresh ones"
            )
            servers.kill()  # reaped: their CPU is this process's children's from now on
            stats.killed_at = time.monotonic()
            started = asyncio.ensure_future(asyncio.to_thread(servers.start))
            await storm("the reconnection", stats.reconnects, stats.killed_at, started)
        elif restart_at is not None:
            # A serving process's CPU stays in its parent's process group when it is reaped.
            killed = servers.kill_serving()
            stats.killed_at = time.monotonic()
            print(
                f"killed every serving daphne process ({killed}, SIGKILL); their prefork "
                "parents fork new ones"
            )
            await storm("the reconnection", stats.reconnects, stats.killed_at)

    with ProcessPoolExecutor(max_workers=1) as pool:
        players, tasks = [], []
        for index, (table_id, keys) in enumerate(layout):
            delay = args.ramp * index / len(layout)
            # The table's four players sit together, this long after their sockets opened.
            sit_after = random.Random(index).uniform(0, args.stagger)
            for seat, key in enumerate(keys):
                base = servers.bases[(index + seat) % len(servers.bases)]
                player = BenchPlayer(base, key, table_id, f"t{index}p{seat}", stats)
                players.append(player)
                tasks.append(player.play(seat == 0, delay, sit_after, pool))
        conductor = asyncio.ensure_future(conduct())
        results = await asyncio.gather(*tasks, return_exceptions=True)
        await conductor
        await first_storm
    lag.cancel()
    failures: list[tuple[BenchPlayer, BaseException]] = [
        (p, r) for p, r in zip(players, results, strict=True) if isinstance(r, Exception)
    ]
    return stats, gauges, failures


def _drop_redis_keys(prefix: str) -> None:
    """Delete this run's keys (the timers still queued when it stopped, the cache): each
    run has a prefix of its own, so nothing else is touched."""
    import redis

    server = redis.Redis.from_url(REDIS)
    try:
        for keys in _chunks(server.scan_iter(f"{prefix}:*", count=1000), 500):
            server.delete(*keys)
    finally:
        server.close()


def _chunks(items: Any, size: int) -> Any:
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def add_load_options(parser: argparse.ArgumentParser) -> None:
    """The load's options, shared with benchmarks/bench_floor.py (the same defaults)."""
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60, help="measured, after the warm-up")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--ramp", type=float, default=10, help="tables open over this time")
    parser.add_argument("--warmup", type=float, default=30, help="seconds not measured")
    parser.add_argument(
        "--stagger",
        type=float,
        default=0,
        help="each table sits down at a random moment this many seconds after its sockets open",
    )
    parser.add_argument(
        "--read",
        type=float,
        nargs=2,
        default=READ_SECONDS,
        metavar=("LEAST", "MOST"),
        help="each player says ready after reading the summary this long (uniform between "
        "the two); the last of a table's four to say it has the next round dealt at once",
    )
    parser.add_argument(
        "--no-ready",
        action="store_true",
        help="never say ready: every next deal waits out the summary (TABLE_SUMMARY_SECONDS)",
    )


def reading(args: argparse.Namespace) -> tuple[float, float] | None:
    """How long the players read a round's summary before saying ready (None: never say it)."""
    if args.no_ready:
        return None
    least, most = args.read
    if not 0 <= least <= most:
        raise SystemExit("--read: LEAST and MOST are seconds, LEAST <= MOST")
    return least, most


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_load_options(parser)
    parser.add_argument(
        "--after", type=float, default=30, help="seconds of play after the daphne restart"
    )
    parser.add_argument("--no-restart", action="store_true", help="do not kill and restart daphne")
    parser.add_argument(
        "--cold-restart",
        action="store_true",
        help="kill the prefork parents too and start every daphne afresh (a deploy's restart), "
        "not only the serving processes (a crash of each)",
    )
    parser.add_argument(
        "--deals-per-second",
        type=float,
        default=None,
        help="the site's DEALS_PER_SECOND (deal pacing, docs/deploy.md): a fixed rate, 0 not "
        "paced; left out, the default: unset, so the site paces adaptively",
    )
    args = parser.parse_args()

    print(f"load average before the run: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    print(machine_speed())
    recreate(SERVER, BENCH_DB, migrated=True)
    logs = Path(mkdtemp(prefix="bench-tables-"))
    counts = logs / "queries"
    counts.mkdir()
    env = site_env(
        DATABASE_URL=database_url(SERVER, BENCH_DB),
        REDIS_URL=REDIS,
        LOG_LEVEL="WARNING",
        CELERY_LOG_LEVEL=os.environ.get("CELERY_LOG_LEVEL", "WARNING"),
    )
    env.pop("DEALS_PER_SECOND", None)  # the shipped default unless asked for
    if args.deals_per_second is not None:
        env["DEALS_PER_SECOND"] = str(args.deals_per_second)
    server_env = {**env, "QUERY_COUNT_DIR": str(counts)}  # not this process's queries
    try:
        _setup_django(env)
        started = time.monotonic()
        layout = _prepare(args.tables)
        print(f"prepared {args.tables} tables in {time.monotonic() - started:.1f} s")
        with contextlib.ExitStack() as stack:
            servers = Servers(server_env, logs, args.servers)
            stack.enter_context(servers.exits)
            servers.start()
            worker = stack.enter_context(
                celery_worker(
                    server_env,
                    logs / "worker.log",
                    beat=logs / "beat",
                    pool=os.environ.get("BENCH_POOL", "prefork"),
                    concurrency=int(os.environ.get("BENCH_CONCURRENCY", "3")),
                )
            )
            with players_heap_frozen() as generator:  # benchmarks/tables/loadgen.py
                stats, gauges, failures = asyncio.run(
                    _run(servers, worker, counts, layout, args, generator)
                )
            sizes = log_sizes(logs)
        wrong = report(args, stats, gauges, failures, logs, sizes)
        check = manage(env, "ledger_check")
        print(f"ledger_check exit {check.returncode}: {check.stdout.strip().splitlines()[-1:]}")
        if check.returncode:
            wrong.append("ledger_check failed")
        print(f"logs: {logs}")
    finally:
        from django.db import connections

        connections.close_all()
        if not os.environ.get("BENCH_KEEP_DB"):
            recreate(SERVER, BENCH_DB, drop_only=True)
        _drop_redis_keys(env["REDIS_PREFIX"])
    fail_loudly(wrong, "OK: every player connected, played on and was served without an error")


if __name__ == "__main__":
    main()
