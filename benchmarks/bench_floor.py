"""The stack's floor: bench_tables' load against a relay with no database and no Celery.

    .venv/bin/python benchmarks/bench_floor.py [--tables 100] [--seconds 60] [--servers 2]
        [--ramp 10] [--warmup 30] [--stagger 0] [--read 2 7] [--no-ready] [--compare]
        [--runs 1] [--ours-ms MS]

The same scripted players as benchmarks/bench_tables.py (benchmarks/tables/players.py, the
same tables of 4, the same thinking, the same measures) play against daphne processes (as
many, on the same Redis channel layer) serving ``benchmarks/floor``: a Channels consumer
that only relays a real round's messages (recorded from the real services, the same
payloads and sizes, through ``group_send`` to the site's groups), with the rules' reveal
timing kept by asyncio in the host's socket. What a round costs there (the CPU of the
daphne processes and Redis, from /proc, over the rounds of the measured window) is what
this stack (daphne, Channels, the Redis layer, the same messages) costs at best.

``--compare`` also runs bench_tables.py with the same options (``--no-restart``: the
restart comes after the measured window and changes nothing in it) right after, ``--runs N``
times, alternating which side goes first, and prints ours (daphne + worker + PostgreSQL +
Redis) ÷ floor for each run; ``--ours-ms`` takes ours from an earlier bench_tables run
instead. Redis is measured by process name, as bench_tables does: another user of the
same redis-server counts on both sides.

It exits non-zero, naming each, when part of its load did not run: a failed connection, a
player that stopped early, a table that settled no round in the measured window, a
player never dealt a hand, a daphne process that died, a part whose CPU read zero, an
error in a relay's log, a bench_tables run that failed or printed no CPU for a part.
``--kill-daphne`` (for its test) kills one relay when the measured window opens.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from tempfile import mkdtemp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_tables import Servers, add_load_options, reading  # noqa: E402
from benchmarks.floor.relay import REVEAL_SECONDS, SUMMARY_SECONDS  # noqa: E402
from benchmarks.speed import describe as machine_speed  # noqa: E402
from benchmarks.tables.loadgen import LoadGenerator, loop_lag, players_heap_frozen  # noqa: E402
from benchmarks.tables.measures import Gauges, Stats, cpu_ms, cpu_ms_named  # noqa: E402
from benchmarks.tables.players import BenchPlayer  # noqa: E402
from benchmarks.tables.report import fail_loudly, log_sizes, report  # noqa: E402
from tests.support.processes import PYTHON, RUN_PREFIX, site_env  # noqa: E402

FLOOR_APP = "benchmarks.floor.asgi:application"
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
# What bench_tables.py prints of the CPU a round, by part ("CPU of worker: 36.3 ms a round").
OURS_PARTS = ("daphne", "worker", "postgres", "redis")
CPU_LINE = re.compile(r"^CPU of (\w[\w ]*): ([\d.]+) ms a round", re.MULTILINE)
ROUNDS_LINE = re.compile(r"^measured [\d.]+ s: (\d+) rounds", re.MULTILINE)
# The two sides play the same load; one that settled fewer rounds than this share of the
# other's did not (its tables still sitting down in the window on a loaded machine, say),
# and a ratio of their CPU a round would compare two different things.
SAME_LOAD = 0.8
# The longest a table's round lasts when its players play (benchmarks/tables/players.py
# thinks up to 3 s; the relay's reveals and summary: benchmarks/floor/round.json).
ROUND_SECONDS = 3 + 3 * REVEAL_SECONDS + SUMMARY_SECONDS


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


Played = tuple[
    Stats, Gauges, dict[int, float], list[BenchPlayer], list[tuple[BenchPlayer, BaseException]]
]


async def _play(servers: Servers, args: argparse.Namespace, generator: LoadGenerator) -> Played:
    """Play until the measured window ends; (the measures, the CPU of each relay in it, the
    players, those that stopped early)."""
    now = time.monotonic()
    measure_from = now + args.warmup
    measure_until = measure_from + args.seconds
    stats = Stats(measure_from, measure_until, measure_until, None, read=reading(args))
    gauges = Gauges(generator=generator)
    lag = asyncio.ensure_future(loop_lag(generator))
    each_daphne: dict[int, float] = {}  # its CPU in the window, ms (a relay that did nothing)

    def sample() -> None:
        for pid in servers.pids():
            each_daphne[pid] = cpu_ms(pid) - each_daphne.get(pid, 0.0)
        gauges.cpu.setdefault("daphne", []).append(sum(cpu_ms(pid) for pid in servers.pids()))
        gauges.cpu.setdefault("redis", []).append(cpu_ms_named("redis-server"))
        gauges.cpu.setdefault("load generator", []).append(cpu_ms(os.getpgrp()))

    with ProcessPoolExecutor(max_workers=1) as pool:
        players, tasks = [], []
        for index in range(args.tables):
            delay = args.ramp * index / args.tables
            sit_after = random.Random(index).uniform(0, args.stagger)
            for seat in range(4):
                base = servers.bases[(index + seat) % len(servers.bases)]
                key = f"floor-{index + 1}-{seat}"  # the relay reads the seat from it
                player = BenchPlayer(base, key, index + 1, f"t{index}p{seat}", stats)
                players.append(player)
                tasks.append(asyncio.ensure_future(player.play(seat == 0, delay, sit_after, pool)))
        await asyncio.sleep(measure_from - time.monotonic())
        sample()
        if args.kill_daphne:
            print(f"--kill-daphne: killing the relay on port {servers.ports[-1]} (SIGKILL)")
            os.killpg(servers.procs[-1].pid, signal.SIGKILL)
        await asyncio.sleep(measure_until - time.monotonic())
        sample()
        # The measured window is over: what the players are waiting for now is not measured.
        for task in tasks:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(p.client.close() for p in players), return_exceptions=True)
    lag.cancel()
    failures: list[tuple[BenchPlayer, BaseException]] = [
        (p, r) for p, r in zip(players, results, strict=True) if isinstance(r, Exception)
    ]
    return stats, gauges, each_daphne, players, failures


Side = tuple[float | None, int, list[str]]
"""A side's run: its CPU a round (ms; None when not measured), its rounds in the measured
window, and what did not run."""


def run_floor(args: argparse.Namespace) -> Side:
    """One floor run."""
    print(f"floor: load average before the run: {load_average()}")
    logs = Path(mkdtemp(prefix="bench-floor-"))
    env = site_env(
        DJANGO_SETTINGS_MODULE="benchmarks.floor.settings",
        REDIS_URL=REDIS,
        REDIS_PREFIX=f"{RUN_PREFIX}floor",
    )
    servers = Servers(env, logs, args.servers, app=FLOOR_APP)
    with servers.exits:
        servers.start()
        with players_heap_frozen() as generator:  # benchmarks/tables/loadgen.py
            stats, gauges, each_daphne, players, failures = asyncio.run(
                _play(servers, args, generator)
            )
        died = [(port, proc.returncode) for port, proc in zip(servers.ports, servers.procs,
                strict=True) if proc.poll() is not None]  # fmt: skip
        sizes = log_sizes(logs)
    print("the floor: no database, so no queries (the line below says so)")
    wrong = report(args, stats, gauges, failures, logs, sizes)
    for port, code in died:
        wrong.append(f"the relay daphne on port {port} died (exit {code})")
    # A round takes up to about 21 s (3 s of thinking, the reveals, the 12 s summary): a
    # window shorter than two of them may fall between a table's settlements, so there a
    # table counts as playing if it settled a round at all (the warm-up too).
    since = stats.measure_from if args.seconds >= 2 * ROUND_SECONDS else 0.0
    where = "in the measured window" if since else "in the whole run"
    by_table: dict[int, bool] = {}
    for player in players:
        settled = any(since <= at < stats.measure_until for at in player.settled_at)
        by_table[player.table_id] = by_table.get(player.table_id, False) or settled
    silent = sorted(table for table, played in by_table.items() if not played)
    if silent:
        wrong.append(f"{len(silent)} tables settled no round {where}: {silent[:20]}")
    undealt = [p.name for p in players if not p.played]
    if undealt:
        wrong.append(f"{len(undealt)} players were never dealt a hand: {undealt[:20]}")
    for pid, own in each_daphne.items():
        if own <= 0:
            wrong.append(f"the CPU of relay daphne {pid} read zero in the measured window")
    spent = {name: samples[1] - samples[0] for name, samples in gauges.cpu.items()}
    for part in ("daphne", "redis"):
        if spent[part] <= 0:
            wrong.append(f"the CPU of {part} read zero in the measured window")
    if not stats.rounds:
        wrong.append("no round settled in the measured window")
        return None, 0, wrong
    floor = (spent["daphne"] + spent["redis"]) / stats.rounds
    print(
        f"floor: {floor:.1f} ms of server CPU a round (daphne + Redis, over {stats.rounds} rounds)"
    )
    print(f"logs: {logs}")
    return floor, stats.rounds, wrong


def run_ours(args: argparse.Namespace) -> Side:
    """bench_tables.py with the same load: its CPU a round (daphne + worker + PostgreSQL +
    Redis, ms) and what did not run."""
    command = [
        PYTHON, str(ROOT / "benchmarks" / "bench_tables.py"),
        "--tables", str(args.tables), "--seconds", str(args.seconds),
        "--servers", str(args.servers), "--ramp", str(args.ramp),
        "--warmup", str(args.warmup), "--stagger", str(args.stagger), "--no-restart",
        *(["--no-ready"] if args.no_ready else ["--read", *map(str, args.read)]),
    ]  # fmt: skip
    print(f"ours: {' '.join(command[1:])}")
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    for line in done.stdout.splitlines():
        print(f"  | {line}")
    wrong = []
    if done.returncode:
        wrong.append(f"bench_tables.py exited {done.returncode}: {done.stderr.strip()[-500:]}")
    parts = {name: float(ms) for name, ms in CPU_LINE.findall(done.stdout)}
    measured = ROUNDS_LINE.search(done.stdout)
    rounds = int(measured.group(1)) if measured else 0
    missing = [part for part in OURS_PARTS if not parts.get(part)]
    if missing:
        wrong.append(f"bench_tables.py printed no (or zero) CPU a round for: {', '.join(missing)}")
        return None, rounds, wrong
    ours = sum(parts[part] for part in OURS_PARTS)
    print(f"ours: {ours:.1f} ms of server CPU a round (daphne + worker + PostgreSQL + Redis)")
    return ours, rounds, wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_load_options(parser)  # bench_tables.py's, with its defaults
    parser.add_argument("--compare", action="store_true", help="run bench_tables.py too")
    parser.add_argument("--runs", type=int, default=1, help="with --compare: pairs of runs")
    parser.add_argument("--ours-ms", type=float, help="ours, from an earlier bench_tables run")
    parser.add_argument(
        "--kill-daphne", action="store_true", help="kill one relay when the window opens (a test)"
    )
    args = parser.parse_args()
    # What bench_tables' report reads of its own options: the floor has no restart, no pacing.
    args.no_restart, args.deals_per_second = True, 0.0

    print(machine_speed())
    wrong: list[str] = []
    ratios = []
    for run in range(args.runs if args.compare else 1):
        sides = [run_floor, run_ours] if args.compare else [run_floor]
        if run % 2:
            sides.reverse()  # alternate which side runs first
        figures, rounds = {}, {}
        for side in sides:
            figure, played, missing = side(args)
            figures[side.__name__], rounds[side.__name__] = figure, played
            wrong += [f"run {run + 1}, {side.__name__.removeprefix('run_')}: {m}" for m in missing]
        floor = figures["run_floor"]
        ours = figures.get("run_ours", args.ours_ms)
        if len(rounds) == 2 and min(rounds.values()) < SAME_LOAD * max(rounds.values()):
            wrong.append(
                f"run {run + 1}: not the same load: the floor settled {rounds['run_floor']} "
                f"rounds in the measured window, ours {rounds['run_ours']}"
            )
        if floor and ours:
            ratios.append(ours / floor)
            print(
                f"run {run + 1}: floor {floor:.1f} ms a round, ours {ours:.1f} ms a round, "
                f"ours ÷ floor = {ours / floor:.2f}× (the goal: ≤ 3×)"
            )
        elif floor:
            print(f"run {run + 1}: floor {floor:.1f} ms a round (no ours: --compare or --ours-ms)")
    if len(ratios) > 1:
        print(f"ours ÷ floor over {len(ratios)} runs: median {statistics.median(ratios):.2f}×")
    fail_loudly(wrong, "OK: every part of the load ran")


if __name__ == "__main__":
    main()
