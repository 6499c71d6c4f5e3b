"""Live tables under load: N tables of 4 scripted websocket players against the real stack.

    .venv/bin/python benchmarks/bench_tables.py [--tables 100] [--seconds 60] [--servers 2]
        [--ramp 10] [--warmup 30] [--after 30] [--no-restart] [--stagger 0]
        [--deals-per-second 0]

Creates a scratch PostgreSQL database, starts daphne processes and a Celery worker (with
beat) on Redis, seats 4 scripted players at each table (sessions made directly, so no
password hashing), and plays rounds continuously: every player arranges (strongest chi 1 first,
in a client-side process pool) and submits after a short think. Tables open one after
another over ``--ramp`` seconds (400 sockets within 10 s at 100 tables); after
``--warmup`` seconds it measures for ``--seconds``: rounds per minute, the latency from
sending a submission to receiving its broadcast (the player's own ``submission`` event)
and to the command's ``ok``, the CPU the daphne and worker processes spent per round
(from /proc), and beside them the CPU of the load generator itself, PostgreSQL and
Redis (they share the machine), the database queries per round by step and how late the
timer tasks started after their eta (both counted in the server processes,
``games.querycount``), and how evenly the deals were spread over the seconds (tables
dealt together submit together). ``--stagger S``: each table's players sit down together
at a random moment up to S seconds after their sockets opened. Then, unless
``--no-restart``, every daphne process is killed with SIGKILL and a fresh one started on
its port: all its sockets reconnect at once
(the storm a restart makes in production) and must play on: every table settles a round
within ``--after`` seconds. Then it runs ledger_check.

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
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import mkdtemp
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scratchdb import database_url, recreate  # noqa: E402
from benchmarks.speed import describe as machine_speed  # noqa: E402
from games.querycount import LATE_BUCKETS_MS  # noqa: E402
from tests.support.processes import (  # noqa: E402
    celery_worker,
    collect_static,
    daphne_process,
    free_port,
    site_env,
)
from tests.support.wsclient import Player, SocketClosed  # noqa: E402

# One scratch database per run: two runs on one machine never drop each other's.
BENCH_DB = f"maubinh_bench_tables_{os.getpid()}"
SERVER = os.environ.get("TEST_DATABASE_URL", "postgres://maubinh:maubinh@127.0.0.1:5432/maubinh")
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
# A server log line that means something failed (daphne, Django and Celery formats).
LOG_ERROR = re.compile(r"\bERROR\b|\bCRITICAL\b|Traceback|took too long to shut down")
# The steps of a round, as games.querycount names them, in order.
ROUND_STEPS = ("deal", "submit", "showdown", "reveal", "settlement")


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
    """A legal arrangement (never a foul), as a quick player makes it: the strongest chi 1,
    then the strongest chi 2 that fits. About 0.7 ms; the auto-arrange's ``suggest`` (6.6 ms
    mean) cost the load generator 25 ms of the machine's CPU a round, which the site lost."""
    from games.rules import format_cards, parse_cards
    from games.rules.arrange import naive_arrangement

    return [format_cards(part) for part in naive_arrangement(parse_cards(cards), "portal")]


# The server processes -------------------------------------------------------------------


class Servers:
    """The daphne processes, on fixed ports, that can be killed and started afresh."""

    def __init__(self, env: dict[str, str], logs: Path, count: int) -> None:
        self.env, self.logs = env, logs
        self.ports = [free_port() for _ in range(count)]
        self.bases = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.procs: list[subprocess.Popen[bytes]] = []
        self.generation = 0
        self.exits = contextlib.ExitStack()

    def start(self) -> None:
        """Start one daphne per port (in parallel: they come up together, as after a crash)."""
        collect_static(self.env)  # once, before the threads
        stacks = [contextlib.ExitStack() for _ in self.ports]
        procs: list[Any] = [None] * len(self.ports)
        errors: list[BaseException] = []

        def one(i: int) -> None:
            log = self.logs / f"daphne{i}-{self.generation}.log"
            try:
                procs[i] = stacks[i].enter_context(daphne_process(self.env, log, self.ports[i]))[1]
            except BaseException as exc:  # reported below, on the caller's thread
                errors.append(exc)

        threads = [threading.Thread(target=one, args=(i,)) for i in range(len(self.ports))]
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
        for proc in self.procs:
            os.killpg(proc.pid, signal.SIGKILL)
        for proc in self.procs:
            proc.wait()

    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs]


def cpu_ms(group: int) -> float:
    """CPU time (user + system, with that of reaped children) of a process group, in ms."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # the process ended meanwhile
        if int(fields[2]) == group:
            ticks += sum(int(value) for value in fields[11:15])
    return ticks * 1000 / os.sysconf("SC_CLK_TCK")


def cpu_ms_named(name: str) -> float:
    """CPU time of every process whose command name is ``name`` (postgres, redis-server), ms."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, _, rest = stat.read_text().rpartition(")")
        except OSError:
            continue
        if head.partition("(")[2].startswith(name):
            ticks += sum(int(value) for value in rest.split()[11:15])
    return ticks * 1000 / os.sysconf("SC_CLK_TCK")


def query_totals(directory: Path) -> Counter[str]:
    """Queries by step so far, summed over every server process (games.querycount)."""
    runs: Counter[str] = Counter()
    queries: Counter[str] = Counter()
    for path in directory.glob("*.json"):
        with contextlib.suppress(OSError, ValueError):
            for name, (count, total) in json.loads(path.read_text()).items():
                runs[name] += count
                queries[name] += total
    return Counter({**{f"runs:{k}": v for k, v in runs.items()}, **queries})


# The players ----------------------------------------------------------------------------


@dataclass
class Stats:
    measure_from: float
    measure_until: float
    stop_at: float
    restart_at: float | None
    latencies: list[float] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    warmup: list[float] = field(default_factory=list)
    rounds: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    handshakes: list[float] = field(default_factory=list)  # first connect -> snapshot, ms
    reconnects: list[float] = field(default_factory=list)  # when each had its snapshot again
    failed_handshakes: Counter[str] = field(default_factory=Counter)
    played_on: set[int] = field(default_factory=set)  # tables that settled after the restart
    deals: list[float] = field(default_factory=list)  # when each table's host got its cards
    killed_at: float | None = None

    def record(self, sent: float, reply: dict[str, Any], broadcast: dict[str, Any]) -> None:
        latency = (broadcast["_at"] - sent) * 1000
        if sent < self.measure_from:
            self.warmup.append(latency)
        elif sent < self.measure_until:
            self.latencies.append(latency)
            self.replies.append((reply["_at"] - sent) * 1000)


class BenchPlayer:
    """One scripted player: sits, plays every round, reconnects when its server dies."""

    def __init__(self, base: str, key: str, table_id: int, name: str, stats: Stats) -> None:
        self.base, self.key, self.table_id, self.name = base, key, table_id, name
        self.stats = stats
        self.client = self._client()
        self.history: list[str] = []  # what happened to its connections (printed on failure)
        self.played: set[int] = set()  # rounds it submitted for (or tried to)

    def _client(self) -> Player:
        return Player(self.base, f"sessionid={self.key}", self.table_id, self.name)

    async def open(self) -> dict[str, Any]:
        """Connect and return the snapshot; every failure (a handshake, or no snapshot) is
        counted."""
        started = time.monotonic()
        try:
            snapshot = await self.client.connect()
        except (OSError, TimeoutError, websockets.WebSocketException) as exc:
            self.stats.failed_handshakes[type(exc).__name__] += 1
            raise
        self.stats.handshakes.append((time.monotonic() - started) * 1000)
        return snapshot

    async def reopen(self) -> dict[str, Any]:
        """After the server died: reconnect as soon as a server listens on the port again.

        A refused TCP connection (nothing listening yet) is retried; a handshake the new
        server does not complete is a failure, counted, and retried too.
        """
        deadline = time.monotonic() + 60
        failures = 0
        while True:
            self.client = self._client()
            try:
                snapshot = await self.client.connect()
            except ConnectionRefusedError:
                pass
            except (OSError, TimeoutError, websockets.WebSocketException) as exc:
                self.stats.failed_handshakes[f"reconnect: {type(exc).__name__}: {exc}"[:90]] += 1
                # Counted (the run fails); then back off as the page does (live.js).
                failures += 1
                await asyncio.sleep(min(8.0, 0.5 * 2**failures) * random.uniform(0.75, 1.25))
            else:
                self.stats.reconnects.append(time.monotonic())
                return snapshot
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: no server for 60 s")
            await asyncio.sleep(random.uniform(0.1, 0.3))

    async def play(
        self, is_host: bool, delay: float, sit_after: float, pool: ProcessPoolExecutor
    ) -> None:
        stats = self.stats
        await asyncio.sleep(delay)
        await self.open()
        await asyncio.sleep(sit_after)
        await self.client.request(type="sit")
        if is_host:
            await self.client.request(type="start")
        dealt: tuple[int, list[str]] | None = None
        while time.monotonic() < stats.stop_at:
            try:
                if dealt is None:
                    dealt = await self._next_deal(is_host)
                if dealt is not None:
                    await self._play_round(*dealt, is_host=is_host, pool=pool)
                    dealt = None
            except SocketClosed:
                snapshot = await self.reopen()
                dealt = self._unsubmitted(snapshot)
                current = snapshot.get("round") or {}
                self.history.append(
                    f"reopened at v{snapshot['version']}: round {current.get('id')} "
                    f"{current.get('state')}, resubmit: {dealt is not None}"
                )
        await self.client.close()

    async def _next_deal(self, is_host: bool) -> tuple[int, list[str]] | None:
        try:
            # Not a round already played: a socket opened during a deal has its cards
            # both in the snapshot and in the deal's event.
            cards = await self.client.wait_for(
                lambda m: m["type"] == "cards" and m["round"] not in self.played, timeout=40
            )
        except TimeoutError:
            if is_host:
                await self.client.request(type="start")
            return None
        if is_host:
            self.stats.deals.append(cards["_at"])
        return cards["round"], cards["cards"]

    def _unsubmitted(self, snapshot: dict[str, Any]) -> tuple[int, list[str]] | None:
        """The round to submit for, if the snapshot shows one dealt to me and not submitted."""
        current = snapshot.get("round") or {}
        mine = current.get("you")
        if current.get("state") == "arranging" and mine and mine["arrangement"] is None:
            return current["id"], mine["cards"]
        return None

    async def _play_round(
        self, round_id: int, cards: list[str], *, is_host: bool, pool: ProcessPoolExecutor
    ) -> None:
        stats, client = self.stats, self.client
        self.played.add(round_id)
        chi = await asyncio.get_running_loop().run_in_executor(pool, _arrange, cards)
        await asyncio.sleep(random.uniform(0.5, 3.0))  # thinking
        sent = time.monotonic()
        reply = await client.request(type="submit", round=round_id, chi=chi)
        if reply["type"] == "error":
            stats.refused[reply["code"]] += 1
            return
        mine = await client.wait_for(
            lambda m: m["type"] == "submission" and m["round"] == round_id, timeout=30
        )
        stats.record(sent, reply, mine)
        await client.wait_for(lambda m: m["type"] == "settled", timeout=60)
        now = time.monotonic()
        if is_host and stats.measure_from <= now < stats.measure_until:
            stats.rounds += 1
        if stats.killed_at is not None and sent > stats.killed_at:
            stats.played_on.add(self.table_id)


# The run --------------------------------------------------------------------------------


@dataclass
class Gauges:
    """CPU and queries at the start and the end of the measured window."""

    cpu: dict[str, list[float]] = field(default_factory=dict)
    queries: list[Counter[str]] = field(default_factory=list)


async def _run(
    servers: Servers,
    worker: subprocess.Popen[bytes],
    counts: Path,
    layout: list[tuple[int, list[str]]],
    args: argparse.Namespace,
) -> tuple[Stats, Gauges, list[tuple[BenchPlayer, BaseException]]]:
    now = time.monotonic()
    measure_from = now + args.warmup
    measure_until = measure_from + args.seconds
    restart_at = None if args.no_restart else measure_until
    stats = Stats(
        measure_from, measure_until, measure_until + (0 if args.no_restart else args.after),
        restart_at,
    )  # fmt: skip
    gauges = Gauges()

    def sample() -> None:
        gauges.cpu.setdefault("daphne", []).append(sum(cpu_ms(pid) for pid in servers.pids()))
        gauges.cpu.setdefault("worker", []).append(cpu_ms(worker.pid))
        # The load generator itself (this process and its arranging pool), PostgreSQL's
        # backends and Redis: they share the machine's two cores with the site.
        gauges.cpu.setdefault("load generator", []).append(cpu_ms(os.getpgrp()))
        gauges.cpu.setdefault("postgres", []).append(cpu_ms_named("postgres"))
        gauges.cpu.setdefault("redis", []).append(cpu_ms_named("redis-server"))
        gauges.queries.append(query_totals(counts))

    async def conduct() -> None:
        await asyncio.sleep(measure_from - time.monotonic())
        sample()
        await asyncio.sleep(measure_until - time.monotonic())
        sample()
        if restart_at is not None:
            print(f"killing {len(servers.procs)} daphne processes (SIGKILL), starting fresh ones")
            servers.kill()
            stats.killed_at = time.monotonic()
            await asyncio.to_thread(servers.start)

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
    failures = [(p, r) for p, r in zip(players, results, strict=True) if isinstance(r, Exception)]
    return stats, gauges, failures


def _percentiles(values: list[float], what: str = "submissions") -> str:
    if not values:
        return f"(no {what})"
    ordered = sorted(values)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return (
        f"over {len(ordered)} {what}: p50 {pct(0.5):.1f} ms, p95 {pct(0.95):.1f} ms, "
        f"p99 {pct(0.99):.1f} ms, max {ordered[-1]:.1f} ms, mean {statistics.fmean(ordered):.1f} ms"
    )


def log_sizes(logs: Path) -> dict[str, int]:
    """How far each server log is written (the bench reads them up to there: what follows
    is the processes being stopped)."""
    return {log.name: log.stat().st_size for log in logs.glob("*.log")}


def _log_errors(logs: Path, sizes: dict[str, int]) -> dict[str, list[str]]:
    found = {}
    for name, size in sorted(sizes.items()):
        with (logs / name).open("rb") as log:
            text = log.read(size).decode(errors="replace")
        lines = [line for line in text.splitlines() if LOG_ERROR.search(line)]
        if lines:
            found[name] = lines
    return found


def _report_queries(gauges: Gauges, rounds: int) -> None:
    if len(gauges.queries) < 2 or not rounds:
        print("queries per round: (not measured)")
        return
    delta = gauges.queries[1] - gauges.queries[0]
    steps = sorted(
        {k for k in delta if not k.startswith(("runs:", "late:"))},
        key=lambda k: (ROUND_STEPS.index(k) if k in ROUND_STEPS else len(ROUND_STEPS), k),
    )
    print(f"queries per round by step (over {rounds} rounds; runs = times the step ran):")
    for step in steps:
        runs = delta[f"runs:{step}"]
        each = f", {delta[step] / runs:.1f} a run" if runs else ""
        print(f"  {step:32} {delta[step] / rounds:7.1f} a round  ({runs} runs{each})")
    print(f"  {'all':32} {sum(delta[s] for s in steps) / rounds:7.1f} a round")
    _report_lateness(delta)


_LATE_ORDER = [str(upper) for upper in LATE_BUCKETS_MS] + ["inf"]


def _late_share(buckets: Counter[str], share: float) -> str:
    """The bucket that holds the ``share`` quantile of a lateness histogram."""
    total, seen = sum(buckets.values()), 0
    for bucket in _LATE_ORDER:
        seen += buckets[bucket]
        if seen >= share * total:
            return f"≤ {bucket} ms" if bucket != "inf" else f"> {LATE_BUCKETS_MS[-1]} ms"
    return "?"


def _report_lateness(delta: Counter[str]) -> None:
    """How late the timer tasks started after their eta (games.querycount's buckets)."""
    tasks: dict[str, Counter[str]] = {}
    for key, count in delta.items():
        if key.startswith("runs:late:") and count:
            task, _, bucket = key.removeprefix("runs:late:").rpartition(":")
            tasks.setdefault(task, Counter())[bucket] = count
    for task, buckets in sorted(tasks.items()):
        total = sum(buckets.values())
        over = sum(buckets[b] for b in _LATE_ORDER[_LATE_ORDER.index("1000") + 1 :])
        print(
            f"timer lateness of {task} over {total} runs: p50 {_late_share(buckets, 0.5)}, "
            f"p95 {_late_share(buckets, 0.95)}, {over} ({100 * over / total:.0f}%) more than 1 s"
        )


def _report(
    args: argparse.Namespace,
    stats: Stats,
    gauges: Gauges,
    failures: list[tuple[BenchPlayer, BaseException]],
    logs: Path,
    sizes: dict[str, int],
) -> list[str]:
    """Print the figures; return what went wrong (empty: the whole load ran)."""
    wrong = []
    print(
        f"tables: {args.tables}, players: {4 * args.tables}, daphne: {args.servers}, "
        f"tables open over {args.ramp:.0f} s and sit down within {args.stagger:.0f} s of it, "
        + (
            f"deals paced at {args.deals_per_second:g} a second (DEALS_PER_SECOND)"
            if args.deals_per_second > 0
            else "deals not paced"
        )
    )
    print(
        f"first connections (tables opening over {args.ramp:.0f} s), connect -> snapshot: "
        f"{_percentiles(stats.handshakes, 'sockets')}"
    )
    print(f"warm-up ({args.warmup:.0f} s): submission -> broadcast {_percentiles(stats.warmup)}")
    rate = stats.rounds / args.seconds * 60
    print(f"measured {args.seconds:.0f} s: {stats.rounds} rounds = {rate:.0f}/min")
    print(f"submission -> broadcast {_percentiles(stats.latencies)}")
    # Tables dealt together submit together: how evenly the deals were spread.
    seconds = Counter(
        int(t - stats.measure_from)
        for t in stats.deals
        if stats.measure_from <= t < stats.measure_until
    )
    if seconds:
        busiest = max(seconds.values())
        print(
            f"deals per second: mean {sum(seconds.values()) / args.seconds:.1f}, "
            f"busiest second {busiest}, seconds with none {int(args.seconds) - len(seconds)}"
        )
    print(f"submission -> its ok    {_percentiles(stats.replies)}")
    for name, samples in gauges.cpu.items():
        if len(samples) == 2 and stats.rounds:
            spent = samples[1] - samples[0]
            print(
                f"CPU of {name}: {spent / stats.rounds:.1f} ms a round "
                f"({spent / 1000 / args.seconds:.2f} of a core)"
            )
    _report_queries(gauges, stats.rounds)
    if not args.no_restart:
        killed = stats.killed_at or 0
        print(
            "after SIGKILL of every daphne: killed -> snapshot again "
            f"{_percentiles([(t - killed) * 1000 for t in stats.reconnects], 'reconnections')}"
        )
        if stats.reconnects:
            # The fresh processes start listening (Django imported) and take every socket.
            first = min(stats.reconnects)
            print(
                f"  the first socket was back {first - killed:.1f} s after the kill (a fresh "
                f"daphne starting), the last {max(stats.reconnects) - first:.2f} s after it"
            )
        stalled = args.tables - len(stats.played_on)
        played = len(stats.played_on)
        print(f"tables that settled a round after the restart: {played} of {args.tables}")
        if stalled:
            wrong.append(f"{stalled} tables did not play on after the restart")
        if len(stats.reconnects) < 4 * args.tables - len(failures):
            wrong.append(f"only {len(stats.reconnects)} sockets reconnected")
    if stats.failed_handshakes:
        total = sum(stats.failed_handshakes.values())
        wrong.append(f"{total} failed connections: {dict(stats.failed_handshakes)}")
    if failures:
        player, error = failures[0]
        wrong.append(f"{len(failures)} players stopped early, e.g. {player.name}: {error!r}"[:400])
        for player, error in failures[: 100 if os.environ.get("BENCH_DEBUG") else 3]:
            received = player.client.received
            t0 = received[0]["_at"] if received else 0
            trail = [(m["type"], m.get("version"), round(m["_at"] - t0, 1)) for m in received]
            print(f"  {player.name} (table {player.table_id}): {error!r:.200}; last: {trail[-12:]}")
            print(f"    {player.history}")
        if os.environ.get("BENCH_DEBUG"):
            with (logs / "failed-players.json").open("w") as out:
                trails = {p.name: [p.history, p.client.received] for p, _ in failures}
                json.dump(trails, out, default=str)
    if stats.refused:
        wrong.append(f"refused submissions: {dict(stats.refused)}")
    if not stats.latencies:
        wrong.append("no submission measured")
    for name, lines in _log_errors(logs, sizes).items():
        wrong.append(f"{len(lines)} errors in {name}, e.g. {lines[0][:300]}")
    slow = sum(log.read_text(errors="replace").count(": slow ") for log in logs.glob("daphne*"))
    print(f"slow commands logged (over SLOW_COMMAND_MS): {slow}")
    return wrong


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60, help="measured, after the warm-up")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--ramp", type=float, default=10, help="tables open over this time")
    parser.add_argument("--warmup", type=float, default=30, help="seconds not measured")
    parser.add_argument(
        "--after", type=float, default=30, help="seconds of play after the daphne restart"
    )
    parser.add_argument("--no-restart", action="store_true", help="do not kill and restart daphne")
    parser.add_argument(
        "--stagger",
        type=float,
        default=0,
        help="each table sits down at a random moment this many seconds after its sockets open",
    )
    parser.add_argument(
        "--deals-per-second",
        type=float,
        default=0,
        help="the site's DEALS_PER_SECOND (deal pacing, docs/deploy.md); 0, the default: not paced",
    )
    args = parser.parse_args()

    print(f"load average before the run: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    print(machine_speed())
    recreate(SERVER, BENCH_DB)
    logs = Path(mkdtemp(prefix="bench-tables-"))
    counts = logs / "queries"
    counts.mkdir()
    env = site_env(
        DATABASE_URL=database_url(SERVER, BENCH_DB),
        REDIS_URL=REDIS,
        LOG_LEVEL="WARNING",
        CELERY_LOG_LEVEL=os.environ.get("CELERY_LOG_LEVEL", "WARNING"),
        DEALS_PER_SECOND=str(args.deals_per_second),
    )
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
            stats, gauges, failures = asyncio.run(_run(servers, worker, counts, layout, args))
            sizes = log_sizes(logs)
        wrong = _report(args, stats, gauges, failures, logs, sizes)
        check = subprocess.run(
            [sys.executable, "manage.py", "ledger_check"], cwd=ROOT, env=env, capture_output=True,
            text=True,
        )  # fmt: skip
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
    if wrong:
        print("FAILED: part of the load did not run:")
        for line in wrong:
            print(f"  - {line}")
        sys.exit(1)
    print("OK: every player connected, played on and was served without an error")


if __name__ == "__main__":
    main()
