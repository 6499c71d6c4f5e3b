"""``python -m benchmarks.chaos``: the command line of a chaos run (benchmarks.chaos)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import benchmarks.chaos

DEFAULT_SERVER = os.environ.get(
    "TEST_DATABASE_URL", "postgres://maubinh:maubinh@127.0.0.1:5432/maubinh"
)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    doc = benchmarks.chaos.__doc__ or ""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.chaos", description=doc.splitlines()[0]
    )
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=int, default=20, help="bot-only tables")
    parser.add_argument("--player-tables", type=int, default=3, help="tables of 4 scripted players")
    parser.add_argument(
        "--no-tournaments",
        dest="tournaments",
        action="store_false",
        help="no sit-and-go and no arena",
    )
    parser.add_argument(
        "--arena-minutes",
        type=int,
        default=0,
        help="the arena's length (default: 80%% of the run, 2 to 20 minutes)",
    )
    parser.add_argument("--sng-stack", type=int, default=100, help="sit-and-go chips each")
    parser.add_argument("--faults-per-minute", type=float, default=1.0)
    parser.add_argument("--warmup", type=float, default=20, help="seconds before the first fault")
    parser.add_argument("--tail", type=float, default=40, help="seconds after the last fault")
    parser.add_argument(
        "--stop-seconds", type=float, default=15, help="how long a worker stays stopped"
    )
    parser.add_argument("--recover-within", type=float, default=25)
    parser.add_argument("--stall-limit", type=float, default=10)
    parser.add_argument("--daphne", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=2, help="pool processes per worker")
    parser.add_argument("--restart-delay", type=float, default=1.0)
    parser.add_argument("--database-url", default=DEFAULT_SERVER, help="server of the scratch db")
    parser.add_argument("--logs", default="", help="default: test-artifacts/chaos-<seed>-<pid>")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    options = parser.parse_args(argv)
    if options.player_tables < 1:
        parser.error("--player-tables must be at least 1 (one of its players drops)")
    options.arena_minutes = options.arena_minutes or max(2, min(20, int(options.minutes * 0.8)))
    return options


if __name__ == "__main__":
    from benchmarks.chaos.run import run

    raise SystemExit(run(parse()))
