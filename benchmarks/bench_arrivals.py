"""The server's cost of a storm of arrivals, step by step: what one socket's opening and
one player's sitting down cost in queries and CPU (issue #28: the warm-up's 800 sockets and
200 sit-downs, the reconnection of every socket after a restart).

    .venv/bin/python benchmarks/bench_arrivals.py [--tables 50] [--profile out.pstats]

In this process, against a scratch PostgreSQL database (maubinh_bench_arrivals_<pid>,
created, migrated and dropped), for ``--tables`` new tables of 4 players: each player's
socket arrives as a table socket's does (``login``: the session's user, as
``games.socket_session.login_user`` finds it; ``handshake``: ``_table_access``; ``arrive``: the
socket's presence row and its snapshot, ``TableConsumer._arrive``), then the four sit down
(``sit``: ``games.services.sit``), then every socket arrives again (``reconnect``: the
storm after a restart, presence and snapshot of a table whose players are seated). Broadcasts
go to Redis (``--redis``, as in production; a prefix of their own, nobody listening); Celery
timers to the in-process ``memory://`` broker, which nothing consumes. Queries and CPU are
counted as ``bench_round_steps.py`` counts them.

Exits non-zero, naming each, if a socket got no snapshot, a player was not seated, or a
step never ran.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_round_steps import Meter, add_redis_argument, django_setup  # noqa: E402
from benchmarks.scratchdb import add_server_argument, database_url, recreate  # noqa: E402
from tests.support.sessions import session_key  # noqa: E402

BENCH_DB = f"maubinh_bench_arrivals_{os.getpid()}"
PLAYERS = 4
STEPS = ("login", "handshake", "arrive", "sit", "reconnect")


def prepare(tables: int) -> list[tuple[int, list[tuple[Any, str]]]]:
    """``tables`` tables, each with its 4 players and their login sessions."""
    from django.core.management import call_command

    from accounts.services import sign_up
    from games import services

    call_command("migrate", verbosity=0)
    made = []
    for t in range(tables):
        people = []
        for p in range(PLAYERS):
            user = sign_up(username=f"a{t}p{p}", password="!bench-only-1")
            people.append((user, session_key(user)))
        table = services.create_table(people[0][0], name=f"t{t}", stake=10)
        made.append((table.pk, people))
    return made


def arrive(meter: Meter, step: str, table_id: int, session_key: str) -> bool:
    """One socket's opening, as the table consumer runs it; True if it got its snapshot."""
    from django.contrib.sessions.backends.db import SessionStore

    from games import consumers, selectors, services
    from games.selectors.tables import table_with_host
    from games.socket_session import login_user

    with meter.measure("login" if step == "arrive" else f"{step} login"):
        user = login_user(SessionStore(session_key))
    if not user.is_authenticated:
        return False
    if step == "arrive":
        with meter.measure("handshake"):
            refused, _private, _by_role = consumers._table_access(table_id, user)
        if refused is not None:
            return False
    with meter.measure(step):
        services.connected(user, table_id, uuid.uuid4())
        snapshot, _later = selectors.snapshot_and_later(table_with_host(table_id), user)
    return snapshot["table"] == table_id


def report(meter: Meter, sockets: int) -> None:
    print(f"\n{'step':16s} {'n':>5s} {'queries':>8s} {'CPU ms p50':>11s} {'mean':>7s}")
    for step in (*STEPS, "reconnect login"):
        if not meter.samples[step]:
            continue
        counts = zip(meter.inside[step], meter.after[step], strict=True)
        queries = statistics.mean(q + a for q, a in counts)
        cpu = meter.cpu[step]
        print(
            f"{step:16s} {meter.samples[step]:5d} {queries:8.1f} "
            f"{statistics.median(cpu):11.2f} {statistics.mean(cpu):7.2f}"
        )
    first = sum(sum(meter.cpu[s]) for s in ("login", "handshake", "arrive", "sit"))
    again = sum(sum(meter.cpu[s]) for s in ("reconnect login", "reconnect"))
    print(
        f"a socket's first arrival and its sit: {first / sockets:.1f} CPU ms; "
        f"its arrival again after a restart: {again / sockets:.1f} CPU ms"
    )
    for step in (*STEPS, "reconnect login"):
        n = meter.samples[step]
        if not n:
            continue
        print(f"\n{step}: statements per step")
        for sql, count in meter.shapes[step].most_common(40):
            print(f"  {count / n:5.2f}  {sql}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--profile", help="write cProfile stats of the measured steps here")
    add_server_argument(parser, BENCH_DB)
    add_redis_argument(parser)
    args = parser.parse_args()
    url = database_url(args.server, BENCH_DB)
    recreate(args.server, BENCH_DB, migrated=True)
    failed: list[str] = []
    try:
        django_setup(url, args.redis)
        from django.db import connection

        from games import services

        tables = prepare(args.tables + 1)
        warm, tables = tables[0], tables[1:]
        for user, key in warm[1]:  # imports, connections, caches
            arrive(Meter(), "arrive", warm[0], key)
            services.sit(user, warm[0])
        meter = Meter()
        meter.profiler = cProfile.Profile(time.thread_time) if args.profile else None
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"PostgreSQL {BENCH_DB}, channel layer {'Redis' if args.redis else 'in-memory'}: "
            f"{args.tables} tables of {PLAYERS}, {os.cpu_count()} CPUs, load average {load} before"
        )
        with connection.execute_wrapper(meter):
            for table_id, people in tables:
                for user, key in people:
                    if not arrive(meter, "arrive", table_id, key):
                        failed.append(f"{user.username}: no snapshot of table {table_id}")
                for user, _key in people:
                    try:
                        with meter.measure("sit"):
                            services.sit(user, table_id)
                    except Exception as error:  # named below, and the run exits 1
                        failed.append(f"{user.username}: not seated at {table_id}: {error!r}")
            for table_id, people in tables:
                for user, key in people:
                    if not arrive(meter, "reconnect", table_id, key):
                        failed.append(f"{user.username}: no snapshot again of {table_id}")
        report(meter, args.tables * PLAYERS)
        failed += [f"step {step}: never ran" for step in STEPS if not meter.samples[step]]
        if meter.profiler is not None:
            meter.profiler.dump_stats(args.profile)
            print(f"profile: {args.profile}")
        connection.close()
    finally:
        recreate(args.server, BENCH_DB, drop_only=True)
    for line in failed:
        print(f"FAILED: {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
