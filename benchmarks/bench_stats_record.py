"""What a run of the statistics summary costs (``profiles.record_stats``, every
PROFILES_RECORD_SECONDS): the recording of N players' rounds into the totals.

    .venv/bin/python benchmarks/bench_stats_record.py [--players 800] [--runs 6]

At 200 busy tables a run every 15 s records about 200 rounds: 800 players' totals for the
day, the week and all time (2,400 rows) and their stakes (800 rows). This adds that many
to the totals of a scratch PostgreSQL database (maubinh_bench_stats_<pid>, created,
migrated and dropped) ``--runs`` times, through ``profiles.services``' own statements,
half the runs on rows that exist (the update) and half creating them, and prints the CPU
(this process: Python, Django and psycopg) and the wall time of each run (PostgreSQL's
work included). Exits non-zero if a run's totals are not what it added.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scratchdb import add_server_argument, database_url, recreate  # noqa: E402
from tests.support.processes import site_env  # noqa: E402

BENCH_DB = f"maubinh_bench_stats_{os.getpid()}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=800)
    parser.add_argument("--runs", type=int, default=6)
    add_server_argument(parser, BENCH_DB)
    args = parser.parse_args()
    recreate(args.server, BENCH_DB, migrated=True)
    try:
        os.environ.update(
            site_env(DATABASE_URL=database_url(args.server, BENCH_DB), LOG_LEVEL="WARNING")
        )
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        call_command("migrate", verbosity=0)
        failed = _measure(args.players, args.runs)
        connections.close_all()
    finally:
        recreate(args.server, BENCH_DB, drop_only=True)
    if failed:
        print(f"FAILED: {failed}")
        return 1
    print("OK: every run added what it recorded")
    return 0


def _measure(players: int, runs: int) -> str:
    from django.db import transaction

    from accounts.models import User
    from profiles import services
    from profiles.models import PeriodTotal, StakeCount

    users = User.objects.bulk_create(User(username=f"stats{k}") for k in range(players))
    cpu: list[float] = []
    wall: list[float] = []
    for run in range(runs):
        day = date(2026, 12, 1 + run // 2)  # every other run updates the day's rows
        totals = sorted(
            ((user.pk, "portal", period, start), _one_round())
            for user in users
            for period, start in (("day", day), ("week", date(2026, 11, 30)), ("all", date.min))
        )
        stakes = sorted(((user.pk, 10), 1) for user in users)
        with transaction.atomic():
            started, clock = time.thread_time(), time.perf_counter()
            services._upsert(totals, increase_rounds=True)
            services._count_stakes(stakes)
            cpu.append((time.thread_time() - started) * 1000)
            wall.append((time.perf_counter() - clock) * 1000)
        rounds = sum(PeriodTotal.objects.filter(period="all").values_list("rounds", flat=True))
        counted = sum(StakeCount.objects.values_list("rounds", flat=True))
        if rounds != players * (run + 1) or counted != players * (run + 1):
            return f"run {run + 1}: {rounds} and {counted} rounds, not {players * (run + 1)}"
    print(
        f"recording {players} players' rounds ({3 * players} totals, {players} stakes),"
        f" {runs} runs: CPU p50 {statistics.median(cpu):.1f} ms"
        f" (min {min(cpu):.1f}, max {max(cpu):.1f}),"
        f" wall p50 {statistics.median(wall):.1f} ms (min {min(wall):.1f}, max {max(wall):.1f})"
    )
    return ""


def _one_round() -> object:
    from profiles.services import _Sums

    return _Sums(rounds=1, net_xu=5, contests=3, chi=[1, 0, 1], fouls=0, biggest_win=5)


if __name__ == "__main__":
    sys.exit(main())
