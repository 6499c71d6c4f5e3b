"""The server's cost of one round, step by step: queries and CPU per deal, submission,
showdown and settlement, with the statements that dominate (the showdown's later chi show
on the clock, with no step of their own: games.services.showdown).

    .venv/bin/python benchmarks/bench_round_steps.py [--rounds 100] [--profile out.pstats]

Plays ``--rounds`` rounds of one 4-player table in this process against a scratch
PostgreSQL database (maubinh_bench_rounds_<pid>, created, migrated and dropped), through the
real services, as the timer tasks and the table sockets call them: ``start_round_when_due``
(the deal), ``submit_arrangement`` (4 times; the last one begins the showdown),
``advance_round`` (the settlement; a showdown step of its own only if a hand was not sent).
Deadlines are moved into the past between steps instead of waited for.

Broadcasts go to Redis (``--redis``, as in production; a prefix of their own, nobody
listening) or, with ``--redis ''``, to the in-memory layer; Celery timers go to the
in-process ``memory://`` broker, which nothing consumes. Queries are counted with
``connection.execute_wrapper``, split into those inside the step's transaction and those
after its commit (``on_commit`` receivers: the bots' listeners); CPU is process time
(every thread of this process, the broadcast thread included) per step.

Exits non-zero if any round failed to settle.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scratchdb import add_server_argument, database_url, recreate  # noqa: E402

# One scratch database per run: two runs on one machine never drop each other's.
BENCH_DB = f"maubinh_bench_rounds_{os.getpid()}"
PLAYERS = 4
STEPS = ("deal", "submission", "last submission", "showdown", "settlement")


def django_setup(url: str, redis: str) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "maubinh_site.settings",
            "DATABASE_URL": url,
            "DEBUG": "false",  # DEBUG would keep every query in memory
            "SECRET_KEY": "benchmark-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
            "CELERY_BROKER_URL": "memory://",  # timers are sent, never run
            "REDIS_PREFIX": f"bench-rounds-{os.getpid()}",
            "LOG_LEVEL": "WARNING",
            # One table dealt over and over as fast as the steps run: a paced site (the
            # default, games.services.countdown) would put most deals off to a later turn.
            "DEALS_PER_SECOND": "0",
        }
    )
    if redis:
        os.environ["REDIS_URL"] = redis
    else:
        os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


_LITERALS = re.compile(r"\b\d+\b|'[^']*'|\"s\d+_x\d+\"")


def shape(sql: str) -> str:
    """A statement with its literals blanked, shortened: statements of one kind add up."""
    sql = _LITERALS.sub("?", " ".join(sql.split()))
    return re.sub(r'SELECT ("\w+"\."\w+"(?: AS "\w+")?, )+', "SELECT …, ", sql)[:150]


class Meter:
    """Counts the queries of each step, and their shapes, inside and after the transaction."""

    def __init__(self) -> None:
        self.step: str | None = None
        self.inside: dict[str, list[int]] = defaultdict(list)
        self.after: dict[str, list[int]] = defaultdict(list)
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.shapes: dict[str, Counter[str]] = defaultdict(Counter)
        self.samples: Counter[str] = Counter()
        self._in = self._out = 0
        self.profiler: cProfile.Profile | None = None

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        from django.db import connection

        if self.step is not None:
            if connection.in_atomic_block:
                self._in += 1
            else:
                self._out += 1
            self.shapes[self.step][shape(sql)] += 1
        return execute(sql, params, many, context)

    @contextmanager
    def measure(self, step: str) -> Iterator[None]:
        self.step, self._in, self._out = step, 0, 0
        start = time.process_time()
        if self.profiler is not None:
            self.profiler.enable()
        try:
            yield
        finally:
            if self.profiler is not None:
                self.profiler.disable()
            self.cpu[step].append((time.process_time() - start) * 1000)
            self.inside[step].append(self._in)
            self.after[step].append(self._out)
            self.samples[step] += 1
            self.step = None


def prepare() -> tuple[list[Any], int]:
    from django.core.management import call_command

    from accounts.services import sign_up
    from games import services

    call_command("migrate", verbosity=0)
    users = [sign_up(username=f"bench{i}", password="!bench-only-1") for i in range(PLAYERS)]
    table = services.create_table(
        users[0],
        name="bench",
        stake=10,
        rules_overrides={"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 5},
    )
    for user in users:
        services.sit(user, table.pk)
    return users, table.pk


def play_round(meter: Meter, users: list[Any], table_id: int) -> bool:
    """One round, step by step; True if it settled."""
    from django.utils import timezone

    from games import services
    from games.models import Round, RoundPlayer, RoundState, Seat, Table
    from games.rules import format_cards, parse_cards
    from games.rules.arrange import naive_arrangement

    now = timezone.now()
    past = now - timedelta(seconds=1)
    Table.objects.filter(pk=table_id).update(start_at=past)
    Seat.objects.filter(table_id=table_id).update(last_seen_at=now)  # present, not away
    with meter.measure("deal"):
        round_ = services.start_round_when_due(table_id)
    if round_ is None:
        return False
    by_user = {u.pk: u for u in users}
    if round_.players.count() != PLAYERS:
        return False  # someone was stood up: the steps below would not measure 4 players
    hands = list(
        RoundPlayer.objects.filter(round=round_)
        .values_list("user_id", "cards")
        .order_by("position")
    )
    version = Table.objects.values_list("version", flat=True).get(pk=table_id)
    for k, (user_id, cards) in enumerate(hands):
        chi = [format_cards(part) for part in naive_arrangement(parse_cards(cards), "portal")]
        step = "last submission" if k == len(hands) - 1 else "submission"
        with meter.measure(step):
            services.submit_arrangement(
                by_user[user_id], round_.pk, chi, seen_version=version, table_id=table_id
            )
    for _ in range(3):
        state, phase = Round.objects.values_list("state", "phase").get(pk=round_.pk)
        if state == RoundState.SETTLED:
            return True
        step = "showdown" if state == RoundState.ARRANGING else "settlement"
        Round.objects.filter(pk=round_.pk).update(deadline=past)
        with meter.measure(step):
            services.advance_round(round_.pk, state, phase)
    return Round.objects.filter(pk=round_.pk, state=RoundState.SETTLED).exists()


def report(meter: Meter, rounds: int, top: int) -> None:
    columns = ("n", 5), ("queries", 8), ("after commit", 13), ("CPU ms p50", 11), ("mean", 7)
    print(f"\n{'step':16s} " + " ".join(f"{name:>{width}s}" for name, width in columns))
    per_round_q = per_round_cpu = 0.0
    for step in STEPS:
        if not meter.samples[step]:
            continue
        q = statistics.mean(meter.inside[step])
        a = statistics.mean(meter.after[step])
        cpu = meter.cpu[step]
        print(
            f"{step:16s} {meter.samples[step]:5d} {q:8.1f} {a:13.1f} "
            f"{statistics.median(cpu):11.2f} {statistics.mean(cpu):7.2f}"
        )
        per_round_q += (q + a) * meter.samples[step] / rounds
        per_round_cpu += sum(cpu) / rounds
    print(f"per round: {per_round_q:.1f} queries, {per_round_cpu:.1f} CPU ms")
    for step in STEPS:
        n = meter.samples[step]
        if not n:
            continue
        print(f"\n{step}: statements per step (top {top})")
        for sql, count in meter.shapes[step].most_common(top):
            print(f"  {count / n:5.2f}  {sql}")


def add_redis_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis",
        default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"),
        help="Redis for the channel layer ('' for the in-memory layer)",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--top", type=int, default=8, help="statements shown per step")
    parser.add_argument(
        "--profile",
        help="write cProfile stats (CPU time of the stepping thread) of the measured steps here",
    )
    add_server_argument(parser, BENCH_DB)
    add_redis_argument(parser)
    args = parser.parse_args()
    url = database_url(args.server, BENCH_DB)
    recreate(args.server, BENCH_DB, migrated=True)
    try:
        django_setup(url, args.redis)
        from django.db import connection

        users, table_id = prepare()
        meter = Meter()
        meter.profiler = cProfile.Profile(time.thread_time) if args.profile else None
        for _ in range(3):  # warm-up: imports, connections, caches
            play_round(Meter(), users, table_id)
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"PostgreSQL {BENCH_DB}, channel layer {'Redis' if args.redis else 'in-memory'}: "
            f"{args.rounds} rounds of a {PLAYERS}-player table, {os.cpu_count()} CPUs, "
            f"load average {load} before"
        )
        failed = 0
        start = time.perf_counter()
        with connection.execute_wrapper(meter):
            for _ in range(args.rounds):
                failed += not play_round(meter, users, table_id)
        elapsed = time.perf_counter() - start
        report(meter, args.rounds, args.top)
        print(f"\n{args.rounds - failed} of {args.rounds} rounds settled in {elapsed:.1f} s")
        if meter.profiler is not None:
            meter.profiler.dump_stats(args.profile)
            print(f"profile: {args.profile}")
        connection.close()
    finally:
        recreate(args.server, BENCH_DB, drop_only=True)
    if failed:
        print(f"FAILED: {failed} rounds did not settle", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
