"""Leaderboard and profile queries at a million rounds of 4 players.

    .venv/bin/python benchmarks/bench_leaderboards.py [--rounds 1000000] [--players 20000]
        [--samples 200] [--keep]

Creates a scratch PostgreSQL database (maubinh_bench_boards), migrates it and fills it
with generated history (not played: bulk INSERT ... SELECT generate_series), then times
every query behind the profile page, the statistics page and the leaderboards, straight
from the selectors with Django's cache bypassed (what a cache miss costs). Prints the load
average before the run, p50 / p95 / max per query against the 50 ms target, and the
database's size; drops the database unless --keep. Exits non-zero if a query errors.

What is generated (only what the queries read; the ledger itself is not filled):
- ``--players`` people (1 % suspended until next year) and 100 bots, one heavy player
  who sits in 5 % of all rounds (the slowest profile), and 2,000 tables (10 % private,
  both presets, stakes 10-500);
- ``--rounds`` settled rounds spread evenly over the last 365 days, 4 distinct players
  each, and their ``profiles_roundstat`` rows (net xu summing to zero per round, chi won,
  5 % binh lủng, 1 % instant wins, 3 % scoops), as the recording task writes them;
- ``profiles_periodtotal`` (day, week, all time per player and preset) aggregated from
  those rows in SQL, exactly as the task's running sums would be;
- ``ratings_rating``: a rating per user (bots too) and preset.
At 1,000,000 rounds the database takes about 2.6 GB (printed at the end) and the fill
took 11 minutes on 2 cores shared at a load average of 10-20 (less on a quiet machine).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scratchdb import database_url, recreate  # noqa: E402

BENCH_DB = "maubinh_bench_boards"
SERVER = os.environ.get("TEST_DATABASE_URL", "postgres://maubinh:maubinh@127.0.0.1:5432/maubinh")
TABLES = 2_000
BOTS = 100
TARGET_MS = 50.0


def django_setup(url: str) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "maubinh_site.settings",
            "DATABASE_URL": url,
            "DEBUG": "true",
            "SECRET_KEY": "bench-secret-key-0123456789abcdefghijklmnopqrstuvwxyz-0123",
        }
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


def fill(rounds: int, players: int) -> dict[str, Any]:
    """Generate the history; returns the ids the measurements pick from."""
    from django.contrib.auth.hashers import make_password
    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from games.models import Preset, Table

    started = time.monotonic()
    password = make_password(None)
    now = timezone.now()
    people = [
        User(
            username=f"p{i}",
            password=password,
            display_name=f"Người chơi {i}",
            suspended_until=now.replace(year=now.year + 1) if i % 100 == 7 else None,
        )
        for i in range(players)
    ]
    User.objects.bulk_create(people, batch_size=5_000)
    User.objects.bulk_create(
        [User(username=f"bot{i}", password=password, is_bot=True) for i in range(BOTS)]
    )
    heavy = User.objects.create(username="heavy", password=password, display_name="Con bạc")
    first_user = User.objects.order_by("pk").values_list("pk", flat=True).first()
    assert first_user is not None
    # The seat formula draws from people and bots (ids first_user .. first_user+N-1).
    pool = players + BOTS
    stakes = [10, 20, 50, 100, 500]
    Table.objects.bulk_create(
        [
            Table(
                name=f"Bàn {t}",
                host_id=first_user + t % players,
                preset=Preset.CLASSIC if t % 3 == 0 else Preset.PORTAL,
                stake=stakes[t % len(stakes)],
                min_balance=stakes[t % len(stakes)],
                is_private=t % 10 == 9,
                is_open=False,
            )
            for t in range(TABLES)
        ],
        batch_size=2_000,
    )
    first_table = Table.objects.order_by("pk").values_list("pk", flat=True).first()
    print(f"  users and tables: {time.monotonic() - started:.1f} s", flush=True)
    with connection.cursor() as db:
        db.execute("SET synchronous_commit = off")
        db.execute("SET statement_timeout = 0")  # the site's timeout is for requests
        db.execute("SET maintenance_work_mem = '256MB'")
        db.execute("SET work_mem = '64MB'")
        # Indexes and constraints (other than primary keys) are built once after the fill:
        # much faster than row by row. The same definitions come back afterwards.
        db.execute(
            """
            SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)
            FROM pg_constraint
            WHERE conrelid IN ('profiles_roundstat'::regclass, 'profiles_periodtotal'::regclass,
                               'profiles_stakecount'::regclass)
              AND contype <> 'p'
            """
        )
        constraints = db.fetchall()
        for table, name, _definition in constraints:
            db.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        db.execute(
            """
            SELECT indexname, indexdef FROM pg_indexes
            WHERE tablename IN ('profiles_roundstat', 'profiles_periodtotal')
              AND indexname NOT LIKE '%%_pkey'
            """
        )
        secondary = db.fetchall()
        for name, _definition in secondary:
            db.execute(f'DROP INDEX "{name}"')
        db.execute(
            """
            INSERT INTO games_round (table_id, number, state, phase, revealed, dealt_version,
                rules_json, stake, server_seed, server_seed_hash, client_seeds, dealt_at,
                settled_at)
            SELECT %(t0)s + g %% %(tables)s, g / %(tables)s + 1, 'settled', 5, 3, 1,
                   '{}'::jsonb, t.stake, '', '', '[]'::jsonb,
                   now() - (%(rounds)s - g) * interval '365 days' / %(rounds)s
                         - interval '2 minutes',
                   now() - (%(rounds)s - g) * interval '365 days' / %(rounds)s
            FROM generate_series(1, %(rounds)s) AS g
            JOIN games_table t ON t.id = %(t0)s + g %% %(tables)s
            """,
            {"t0": first_table, "tables": TABLES, "rounds": rounds},
        )
        print(f"  rounds: {time.monotonic() - started:.1f} s", flush=True)
        # Seat s of round r: user (base + s * pool/4) mod pool, distinct within the round;
        # every 20th round the heavy player takes seat 0. Net: three hashed amounts and
        # the fourth balancing them, in stakes.
        db.execute(
            """
            INSERT INTO profiles_roundstat (round_id, user_id, preset, stake, settled_at,
                net_xu, contests, chi1_won, chi2_won, chi3_won, foul, instant_kind, scoop_kind)
            SELECT r.id,
                   CASE WHEN s = 0 AND r.id %% 20 = 0 THEN %(heavy)s
                        ELSE %(u0)s + ((r.id * 7919) %% %(pool)s + s * (%(pool)s / 4)) %% %(pool)s
                   END,
                   t.preset, r.stake, r.settled_at,
                   r.stake * CASE WHEN s < 3 THEN ((r.id * 31 + s * 17) %% 41) - 20
                        ELSE -(((r.id * 31) %% 41) - 20) - (((r.id * 31 + 17) %% 41) - 20)
                             - (((r.id * 31 + 34) %% 41) - 20) END,
                   3, (r.id + s) %% 4, (r.id * 3 + s) %% 4, (r.id * 5 + s) %% 4,
                   (r.id * 13 + s) %% 20 = 0,
                   CASE WHEN (r.id * 11 + s) %% 100 = 0 THEN 'six_pairs' ELSE '' END,
                   CASE WHEN (r.id * 17 + s) %% 33 = 0 THEN 'one'
                        WHEN (r.id * 17 + s) %% 100 = 1 THEN 'all' ELSE '' END
            FROM games_round r
            JOIN games_table t ON t.id = r.table_id
            CROSS JOIN generate_series(0, 3) AS s
            """,
            {"heavy": heavy.pk, "u0": first_user, "pool": pool},
        )
        print(f"  round stats: {time.monotonic() - started:.1f} s", flush=True)
        for period, start in (
            ("day", "(settled_at AT TIME ZONE 'Asia/Ho_Chi_Minh')::date"),
            ("week", "date_trunc('week', settled_at AT TIME ZONE 'Asia/Ho_Chi_Minh')::date"),
            ("all", "DATE '2000-01-01'"),
        ):
            db.execute(
                f"""
                INSERT INTO profiles_periodtotal (user_id, preset, period, start, rounds,
                    net_xu, contests, chi1_won, chi2_won, chi3_won, fouls, biggest_win)
                SELECT user_id, preset, '{period}', {start}, count(*), sum(net_xu),
                       sum(contests), sum(chi1_won), sum(chi2_won), sum(chi3_won),
                       count(*) FILTER (WHERE foul), greatest(max(net_xu), 0)
                FROM profiles_roundstat GROUP BY 1, 2, 4
                """
            )
        db.execute(
            """
            INSERT INTO profiles_stakecount (user_id, stake, rounds)
            SELECT user_id, stake, count(*) FROM profiles_roundstat GROUP BY 1, 2
            """
        )
        print(f"  period totals, stake counts: {time.monotonic() - started:.1f} s", flush=True)
        # A rating per player (bots too: the board must skip them) and preset, spread as
        # ratings.services would leave them (mu around 25, sigma 1.25 to 3.05).
        db.execute(
            """
            INSERT INTO ratings_rating (user_id, preset, mu, sigma, display, rounds, updated_at)
            SELECT u.id, p.preset, 25 + 8 * sin(u.id * 1.7), 1.25 + (u.id % 7) * 0.3,
                   round(1000 + 20 * (25 + 8 * sin(u.id * 1.7) - 3 * (1.25 + (u.id % 7) * 0.3))),
                   1 + u.id % 300, now()
            FROM accounts_user u CROSS JOIN (VALUES ('portal'), ('classic')) AS p (preset)
            """
        )
        print(f"  ratings: {time.monotonic() - started:.1f} s", flush=True)
        for _name, definition in secondary:
            db.execute(definition)
        for table, name, definition in constraints:
            db.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        print(f"  indexes: {time.monotonic() - started:.1f} s", flush=True)
    # As autovacuum leaves a live database: statistics, and the visibility map that lets
    # the favourite-stake count be an index-only scan.
    connection.ensure_connection()
    autocommit = connection.connection.autocommit
    connection.connection.autocommit = True
    try:
        with connection.cursor() as db:
            db.execute("VACUUM ANALYZE")
    finally:
        connection.connection.autocommit = autocommit
    print(f"  vacuum analyze: {time.monotonic() - started:.1f} s", flush=True)
    return {"first_user": first_user, "people": players, "heavy": heavy.pk}


def timed(samples: int, call: Callable[[int], Any]) -> tuple[list[float], int]:
    """Milliseconds per call over ``samples`` calls (call(i)); and the number of errors."""
    times, errors = [], 0
    for i in range(samples):
        started = time.perf_counter()
        try:
            result = call(i)
            if hasattr(result, "__iter__") and not isinstance(result, (str, bytes, dict)):
                list(result)
        except Exception as exc:
            errors += 1
            print(f"    error: {exc!r}", flush=True)
            continue
        times.append((time.perf_counter() - started) * 1000)
    return times, errors


def measure(ids: dict[str, Any], samples: int) -> int:
    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection

    from accounts.models import User
    from games.models import Preset
    from profiles import selectors
    from profiles.models import Period
    from ratings import selectors as ratings

    rng = random.Random(14)
    people = list(
        User.objects.filter(is_bot=False, username__startswith="p")
        .order_by("?")
        .values_list("pk", flat=True)[: max(samples, 1)]
    )
    users = {pk: User.objects.get(pk=pk) for pk in people}
    heavy = User.objects.get(pk=ids["heavy"])
    picks = [users[rng.choice(people)] for _ in range(samples)]

    def player(i: int) -> Any:
        return picks[i]

    queries: list[tuple[str, Callable[[int], Any]]] = []
    for period in Period.values:
        for kind in ("net", "rounds"):
            for preset in Preset.values:
                start = selectors._start(period)
                queries.append(
                    (
                        f"board {kind}/{period}/{preset}",
                        lambda i, k=kind, p=period, s=preset, st=start: selectors._board(
                            k, p, s, st
                        ),
                    )
                )
            start = selectors._start(period)
            queries.append(
                (
                    f"own rank {kind}/{period}/portal",
                    lambda i, k=kind, p=period, st=start: selectors._rank_of(
                        player(i), k, p, Preset.PORTAL, st
                    ),
                )
            )
            # The hidden players' list is shared by every rank of a board for the cache's
            # lifetime; "cold" pays for it too (the first rank asked after a refresh).
            queries.append(
                (
                    f"own rank {kind}/{period}/portal, cold",
                    lambda i, k=kind, p=period, st=start: (
                        cache.clear(),
                        selectors._rank_of(player(i), k, p, Preset.PORTAL, st),
                    ),
                )
            )
    for preset in Preset.values:
        queries.append(
            (
                f"board rating/{preset}",
                lambda i, s=preset: ratings.top(s, settings.PROFILES_BOARD_SIZE),
            )
        )
    queries += [
        ("own rank rating/portal", lambda i: selectors.rating_rank_of(player(i), Preset.PORTAL)),
        (
            "own rank rating/portal, cold",
            lambda i: (cache.clear(), selectors.rating_rank_of(player(i), Preset.PORTAL)),
        ),
        ("profile ratings", lambda i: ratings.ratings_of(player(i))),
    ]
    queries += [
        ("profile figures", lambda i: selectors.figures(player(i))),
        ("profile figures (heavy player)", lambda i: selectors.figures(heavy)),
        ("recent public rounds", lambda i: selectors.recent_rounds(player(i))),
        ("recent public rounds (heavy)", lambda i: selectors.recent_rounds(heavy)),
        ("daily history (30 days)", lambda i: selectors.daily_history(player(i))),
        ("weekly history (12 weeks)", lambda i: selectors.weekly_history(player(i))),
    ]
    cache.clear()
    errors = 0
    over = []
    print(f"\n  {'query':<38} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}  target {TARGET_MS:.0f} ms")
    for name, call in queries:
        call(0)  # one warm-up call (plans, first page reads)
        times, failed = timed(samples, call)
        errors += failed
        if not times:
            print(f"  {name:<38} {'all calls failed':>26}")
            continue
        times.sort()
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        verdict = "ok" if p95 < TARGET_MS else "OVER"
        if p95 >= TARGET_MS:
            over.append(name)
        print(
            f"  {name:<38} {statistics.median(times):8.2f} {p95:8.2f} {times[-1]:8.2f}  {verdict}",
            flush=True,
        )
    with connection.cursor() as db:
        db.execute("SELECT count(*) FROM profiles_roundstat")
        stats = db.fetchone()[0]
        db.execute("SELECT count(*) FROM profiles_periodtotal")
        totals = db.fetchone()[0]
        db.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
        size = db.fetchone()[0]
    print(f"\n  rows: {stats:,} round stats, {totals:,} period totals; database size {size}")
    print(f"  over the {TARGET_MS:.0f} ms target at p95: {', '.join(over) or 'none'}")
    print(f"  errors: {errors}")
    return errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument(
        "--measure-only", action="store_true", help="measure a database kept by --keep"
    )
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"load average before the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{args.rounds:,} rounds of 4 players, {args.players:,} players, {args.samples} samples")
    if not args.measure_only:
        recreate(SERVER, BENCH_DB, migrated=True)
    errors = 1
    try:
        django_setup(database_url(SERVER, BENCH_DB))
        if args.measure_only:
            from accounts.models import User

            ids = {"heavy": User.objects.get(username="heavy").pk}
        else:
            from django.core.management import call_command

            started = time.monotonic()
            call_command("migrate", verbosity=0)
            ids = fill(args.rounds, args.players)
            print(f"  filled in {time.monotonic() - started:.1f} s", flush=True)
        errors = measure(ids, args.samples)
    finally:
        from django.db import connections

        connections.close_all()
        if not (args.keep or args.measure_only):
            recreate(SERVER, BENCH_DB, drop_only=True)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
