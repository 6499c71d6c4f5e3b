"""What bench_tables.py measures: the players' latencies and rounds (``Stats``), the CPU
of process groups and named processes (from /proc) and the server processes' queries by
step (``Gauges``, games.querycount)."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.tables.loadgen import LoadGenerator


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
    # Seconds a player reads the summary before saying ``ready`` (uniform between the two);
    # None: never says it, and the next deal waits out the summary (TABLE_SUMMARY_SECONDS).
    read: tuple[float, float] | None = None
    readies: int = 0  # ``ready`` sent
    readies_late: int = 0  # refused as the round before: the countdown ran out first

    decided: dict[tuple[int, int], bool] = field(default_factory=dict)  # (table, round)

    def to_play(self, table_id: int, round_id: int) -> bool:
        """Whether a table's four play the round they were dealt: those dealt before the
        run's end are played to the end by all four, whichever sees its cards first
        decides, so no player is left waiting on a round the others walked away from. By
        table and round: the floor's relay numbers each table's rounds from 1."""
        return self.decided.setdefault((table_id, round_id), time.monotonic() < self.stop_at)

    def record(self, sent: float, reply: dict[str, Any], broadcast: dict[str, Any]) -> None:
        latency = (broadcast["_at"] - sent) * 1000
        if sent < self.measure_from:
            self.warmup.append(latency)
        elif sent < self.measure_until:
            self.latencies.append(latency)
            self.replies.append((reply["_at"] - sent) * 1000)


@dataclass
class Gauges:
    """CPU and queries at the start and the end of the measured window; the CPU each part
    spent in each storm (the first connections, the reconnection after the kill)."""

    cpu: dict[str, list[float]] = field(default_factory=dict)
    queries: list[Counter[str]] = field(default_factory=list)
    # storm -> (sockets served, seconds it lasted, CPU ms by part)
    storms: dict[str, tuple[int, float, dict[str, float]]] = field(default_factory=dict)
    # How the players' own process ran (benchmarks/tables/loadgen.py).
    generator: LoadGenerator = field(default_factory=LoadGenerator)
