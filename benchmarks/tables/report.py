"""What bench_tables.py prints, and what went wrong (a part of the load that did not run)."""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
from collections import Counter
from pathlib import Path

from benchmarks.tables.measures import Gauges, Stats
from benchmarks.tables.players import BenchPlayer
from games.querycount import LATE_BUCKETS_MS

# A server log line that means something failed (daphne, Django and Celery formats).
LOG_ERROR = re.compile(r"\bERROR\b|\bCRITICAL\b|Traceback|took too long to shut down")
# The steps of a round, as games.querycount names them, in order.
ROUND_STEPS = ("deal", "submit", "showdown", "settlement")  # the later chi: on the clock


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


def report(
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
            "deals paced adaptively (DEALS_PER_SECOND unset, the default)"
            if args.deals_per_second is None
            else f"deals paced at {args.deals_per_second:g} a second (DEALS_PER_SECOND)"
            if args.deals_per_second > 0
            else "deals not paced (DEALS_PER_SECOND=0)"
        )
    )
    lags = [1000 * lag for lag in gauges.generator.lags]
    print(f"load generator: its event loop late {_percentiles(lags, 'samples')}")
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
    for storm, (sockets, lasted, used) in gauges.storms.items():
        parts = ", ".join(f"{part} {ms / 1000:.2f} s" for part, ms in used.items())
        each = used.get("daphne", 0) / sockets if sockets else 0
        print(
            f"CPU during {storm} ({sockets} sockets in {lasted:.1f} s): {parts}; "
            f"daphne {each:.1f} ms a socket (with all else it did meanwhile)"
        )
    if not args.no_restart:
        killed = stats.killed_at or 0
        what = "daphne and its prefork parent" if args.cold_restart else "serving daphne"
        print(
            f"after SIGKILL of every {what}: killed -> snapshot again "
            f"{_percentiles([(t - killed) * 1000 for t in stats.reconnects], 'reconnections')}"
        )
        if stats.reconnects:
            # The new processes listen (forked, or started afresh) and take every socket.
            first = min(stats.reconnects)
            how = "a fresh daphne starting" if args.cold_restart else "a forked daphne"
            print(
                f"  the first socket was back {first - killed:.1f} s after the kill ({how}), "
                f"the last {max(stats.reconnects) - first:.2f} s after it"
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
    if stats.read is not None:
        print(
            f"ready said after reading the summary {stats.read[0]:g}-{stats.read[1]:g} s: "
            f"{stats.readies} times, {stats.readies_late} after the countdown had run out"
        )
    if stats.refused:
        wrong.append(f"refused commands: {dict(stats.refused)}")
    if not stats.latencies:
        wrong.append("no submission measured")
    for name, lines in _log_errors(logs, sizes).items():
        wrong.append(f"{len(lines)} errors in {name}, e.g. {lines[0][:300]}")
    slow = sum(log.read_text(errors="replace").count(": slow ") for log in logs.glob("daphne*"))
    print(f"slow commands logged (over SLOW_COMMAND_MS): {slow}")
    return wrong


def fail_loudly(wrong: list[str], ok: str) -> None:
    """Exit 1 naming each part of the load that did not run; else print ``ok``."""
    if wrong:
        print("FAILED: part of the load did not run:")
        for line in wrong:
            print(f"  - {line}")
        sys.exit(1)
    print(ok)
