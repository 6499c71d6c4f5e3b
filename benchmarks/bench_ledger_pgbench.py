"""The ledger's hot path under pgbench: single transfers through the site's PL/pgSQL function.

    /work/main/.venv/bin/python benchmarks/bench_ledger_pgbench.py [--clients 8] [--seconds 30]
        [--pgledger PATH/TO/pgledger] [--rounds 3] [--function single|batch] [--mode prepared]

The workload a ledger is compared on (pgledger's is the same shape): N pgbench clients,
each transaction one wallet-to-wallet transfer of 1–10 xu between two random accounts of
1,000, posted by one call of the PL/pgSQL function the site uses for one transfer
(``ledger_post_transfer``; ``--function batch`` posts it as a one-leg batch through
``ledger_post_transfers`` instead). Creates a scratch database (maubinh_pgbench), migrates
it, grants the wallets, runs pgbench, and prints:

- transfers per second (pgbench's own count, checked against the transfers table);
- PostgreSQL backend CPU per transfer (user + system time of pgbench's backends, from
  /proc, over a window in which the transfers are counted);
- the share of ``ledger_account`` balance updates that took the in-place (HOT) path;
- the buffers the account lock query reads after the run, and the account indexes.

With ``--pgledger`` the same workload also runs against pgledger
(https://github.com/pgr0ss/pgledger, a PL/pgSQL ledger), side by side: PATH is a checkout
of it (``git clone https://github.com/pgr0ss/pgledger``); its ``vendor/scoville-pgsql-ulid``
SQL and ``pgledger.sql`` are loaded with psql into a second scratch database
(maubinh_pgledger). The project contains none of pgledger's code. Its 1,000 accounts
refuse negative balances (as wallets do), are funded with 100,000 from an account that
may go negative (as the issuance accounts), and each transaction is one
``pgledger_create_transfer`` call.

The comparison is kept fair in both directions: both sides run the same pgbench command
(same ``-M`` query mode - ``prepared`` by default, so neither pays for parsing and
planning its calling statement on every transaction; same clients, threads and length),
the same 1,000 accounts, the same random pairs and amounts (drawn by pgbench, passed as
typed parameters), one function call per transaction wrapped in the same
``SELECT count(*) FROM ...``. Ours also draws a fresh idempotency key per transaction
(``gen_random_uuid()``), which pgledger has no use for. Each side first runs a short
warm-up that is not counted (new backends, cold caches and a just-created database
favoured whichever went second), and with ``--rounds N`` the two alternate N times, the
side that goes first alternating too, and the medians are compared, so a change in the
machine's load does not favour one of them.

It exits non-zero when any transaction failed, a count disagrees or an audit finds a
difference (``ledger_check``; for pgledger: balances sum to zero, two entries per
transfer): a figure measured on a partly failed load is wrong. The databases are dropped
at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_ledger import (  # noqa: E402
    WALLETS,
    cpu_seconds,
    django_setup,
    prepare_wallets,
)
from benchmarks.scratchdb import add_server_argument, database_url, recreate  # noqa: E402

BENCH_DB = "maubinh_pgbench"
PGLEDGER_DB = "maubinh_pgledger"

# One transfer per transaction. The key is unique per transaction, so every call posts.
# pgbench draws the accounts and the amount (the same way in both scripts); with -M
# prepared its variables become parameters, hence the casts.
PAIR = """\
\\set a random(0, {last})
\\set b (:a + random(1, {last})) % {count}
\\set amount random(1, 10)
"""
SCRIPTS = {
    "single": PAIR
    + """\
SELECT count(*) FROM ledger_post_transfer(
  'pgbench:' || (:client_id)::text || ':' || gen_random_uuid(), 'adjustment',
  'wallet:' || ({first} + (:a)::bigint), 'wallet:' || ({first} + (:b)::bigint),
  (:amount)::bigint, now()
);
""",
    "batch": PAIR
    + """\
SELECT count(*) FROM ledger_post_transfers(
  jsonb_build_array(jsonb_build_object(
    'kind', 'adjustment',
    'debit', 'wallet:' || ({first} + (:a)::bigint),
    'credit', 'wallet:' || ({first} + (:b)::bigint),
    'amount', (:amount)::bigint,
    'reason', '',
    'key', 'pgbench:' || (:client_id)::text || ':' || gen_random_uuid()
  )),
  now()
);
""",
}
FUNCTIONS = {"single": "ledger_post_transfer", "batch": "ledger_post_transfers"}


# pgledger's side of the same workload. Its account ids are prefixed ULIDs; after
# creating the accounts through its API they are renamed to ids of the same length and
# shape that a pgbench script can compute ("pgla_" and 26 digits), before any transfer
# refers to them, so neither side pays for a look-up the other does not.
PGLEDGER_FILES = (
    "vendor/scoville-pgsql-ulid/ulid-to-uuid.sql",
    "vendor/scoville-pgsql-ulid/uuid-to-ulid.sql",
    "pgledger.sql",
)
PGLEDGER_SETUP = """\
SELECT count(*) FROM pgledger_create_account('issuance', 'XU', true, true);
SELECT count(*) FROM generate_series(0, {last}) n,
       pgledger_create_account('wallet:' || n, 'XU', false, true);
UPDATE pgledger_accounts SET id = 'pgla_' || lpad(split_part(name, ':', 2), 26, '0')
 WHERE name LIKE 'wallet:%';
SELECT count(*) FROM pgledger_accounts a,
       pgledger_create_transfer(
           (SELECT id FROM pgledger_accounts WHERE name = 'issuance'), a.id, 100000)
 WHERE a.name LIKE 'wallet:%';
"""
PGLEDGER_SCRIPT = (
    PAIR
    + """\
SELECT count(*) FROM pgledger_create_transfer(
  'pgla_' || lpad((:a)::text, 26, '0'), 'pgla_' || lpad((:b)::text, 26, '0'),
  (:amount)::numeric
);
"""
)
PGLEDGER_COUNT = "SELECT count(*) FROM pgledger_transfers"


def _pg_env(url: str) -> dict[str, str]:
    parsed = urlparse(url)
    return {
        **os.environ,
        "PGHOST": parsed.hostname or "127.0.0.1",
        "PGPORT": str(parsed.port or 5432),
        "PGUSER": parsed.username or "",
        "PGPASSWORD": parsed.password or "",
        "PGDATABASE": parsed.path.lstrip("/"),
    }


class BackendSampler(threading.Thread):
    """Samples pgbench's backends' CPU and the transfers posted while pgbench runs.

    The per-transfer CPU is taken between the first sample with every client connected
    and the last sample before any of them leaves, so connection set-up and tear-down
    are not counted, and transfers are counted over exactly that window (by
    ``count_sql``, run on the sampler's own connection, whose CPU is not counted).
    """

    def __init__(self, url: str, clients: int, count_sql: str) -> None:
        super().__init__(daemon=True)
        self.url, self.clients, self.count_sql = url, clients, count_sql
        self.samples: list[tuple[float, float, int]] = []  # (time, cpu seconds, transfers)
        self.done = threading.Event()

    def run(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self.done.is_set():
                pids = [
                    row[0]
                    for row in conn.execute(
                        "SELECT pid FROM pg_stat_activity WHERE application_name = 'pgbench'"
                        " AND datname = current_database()"
                    )
                ]
                # NaN: a backend left between the two reads (or the server is not local)
                cpu = sum(cpu_seconds(pid) for pid in pids) if pids else math.nan
                if len(pids) == self.clients and not math.isnan(cpu):
                    count = conn.execute(self.count_sql).fetchone()
                    self.samples.append((time.monotonic(), cpu, int(count[0])))
                elif self.samples:
                    return  # a client left: pgbench is finishing
                time.sleep(0.5)


@dataclass
class Run:
    """One pgbench run: its rate, backend CPU per transfer and what went wrong."""

    tps: float = float("nan")
    processed: int = 0
    cpu_ms: float = float("nan")
    window: str = ""
    failures: list[str] = field(default_factory=list)


def run_pgbench(
    url: str, script: str, count_sql: str, args: argparse.Namespace, seconds: int
) -> Run:
    """Run ``script`` under pgbench against ``url`` and sample its backends meanwhile."""
    run = Run()
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as file:
        file.write(script)
    sampler = BackendSampler(url, args.clients, count_sql)
    sampler.start()
    bench = subprocess.run(
        [
            "pgbench", "--no-vacuum", "-n", "-M", args.mode, "-f", file.name,
            "-c", str(args.clients), "-j", str(args.threads), "-T", str(seconds),
        ],
        env=_pg_env(url), capture_output=True, text=True, check=False,
    )  # fmt: skip
    sampler.done.set()
    sampler.join()
    os.unlink(file.name)
    if bench.returncode != 0:
        run.failures.append(f"pgbench exited {bench.returncode}: {bench.stderr.strip()[-500:]}")
    tps = re.search(r"tps = ([\d.]+) \(without initial connection time\)", bench.stdout)
    processed = re.search(r"number of transactions actually processed: (\d+)", bench.stdout)
    failed = re.search(r"number of failed transactions: (\d+)", bench.stdout)
    if failed and int(failed.group(1)):
        run.failures.append(f"{failed.group(1)} transactions failed")
    if tps and processed:
        run.tps, run.processed = float(tps.group(1)), int(processed.group(1))
    else:
        run.failures.append("pgbench printed no throughput")
        print(bench.stdout[-2000:], bench.stderr[-2000:], sep="\n")
    window = sampler.samples
    if len(window) >= 2:
        (t0, cpu0, n0), (t1, cpu1, n1) = window[0], window[-1]
        run.cpu_ms = (cpu1 - cpu0) / max(1, n1 - n0) * 1000
        run.window = f"sampled window: {(n1 - n0) / (t1 - t0):.0f}/s over {t1 - t0:.1f} s"
    else:
        run.failures.append("the sampler never saw every client connected")
    return run


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _account_stats(conn: object) -> tuple[int, int]:
    row = conn.execute(  # type: ignore[attr-defined]
        "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'ledger_account'"
    ).fetchone()
    return int(row[0]), int(row[1])


def _lock_query_buffers(conn: object, first: int) -> int:
    """Buffers read by the lock query of a two-account transfer (as the function runs it)."""
    keys = [f"wallet:{first + 5}", f"wallet:{first + 500}"]
    with conn.transaction():  # type: ignore[attr-defined]
        plan = conn.execute(  # type: ignore[attr-defined]
            "EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) SELECT 1 FROM ledger_account"
            " WHERE key = ANY (%s) ORDER BY id FOR UPDATE",
            [keys],
        ).fetchall()
        conn.execute("ROLLBACK")  # type: ignore[attr-defined]
    text = "\n".join(row[0] for row in plan)
    hits = re.search(r"Buffers: shared hit=(\d+)(?: read=(\d+))?", text)
    return int(hits.group(1)) + int(hits.group(2) or 0) if hits else -1


def prepare_pgledger(server: str, checkout: Path) -> str:
    """A scratch database with pgledger loaded from ``checkout`` and its accounts funded."""
    url = database_url(server, PGLEDGER_DB)
    recreate(server, PGLEDGER_DB)
    files = [checkout / name for name in PGLEDGER_FILES]
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as setup:
        setup.write(PGLEDGER_SETUP.format(last=WALLETS - 1))
    command = ["psql", "-q", "-X", "--single-transaction", "-v", "ON_ERROR_STOP=1"]
    for path in [*files, Path(setup.name)]:
        command += ["-f", str(path)]
    loaded = subprocess.run(command, env=_pg_env(url), capture_output=True, text=True, check=False)
    os.unlink(setup.name)
    if loaded.returncode != 0:
        raise SystemExit(f"loading pgledger failed: {loaded.stderr.strip()[-1000:]}")
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE pgledger_accounts, pgledger_transfers, pgledger_entries")
    return url


def audit_pgledger(url: str, processed: int) -> list[str]:
    """pgledger's own invariants after the run: nothing created or lost, entries paired."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT (SELECT sum(balance) FROM pgledger_accounts),"
            " (SELECT count(*) FROM pgledger_accounts WHERE NOT allow_negative_balance"
            "  AND balance < 0),"
            " (SELECT count(*) FROM pgledger_transfers),"
            " (SELECT count(*) FROM pgledger_entries)"
        ).fetchone()
    assert row is not None
    total, negative, transfers, entries = row
    problems = []
    if total != 0 or negative:
        problems.append(f"pgledger: balances sum to {total}, {negative} negative wallets")
    if entries != 2 * transfers:
        problems.append(f"pgledger: {entries} entries for {transfers} transfers")
    if transfers != WALLETS + processed:
        problems.append(f"pgbench counted {processed} pgledger transfers, the table {transfers}")
    return problems


def _median(runs: list[Run], attribute: str) -> float:
    return float(statistics.median(getattr(run, attribute) for run in runs))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="pgledger: git clone https://github.com/pgr0ss/pgledger, then --pgledger"
        " PATH_OF_THAT_CHECKOUT (it is not part of this project).",
    )
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2, help="pgbench -j")
    parser.add_argument("--seconds", type=int, default=30, help="length of each run")
    parser.add_argument(
        "--pgledger",
        type=Path,
        metavar="PATH",
        help="a checkout of https://github.com/pgr0ss/pgledger: run the same workload on"
        " its pgledger_create_transfer too and compare",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="with --pgledger: alternate the two N times"
    )
    parser.add_argument(
        "--function",
        choices=sorted(FUNCTIONS),
        default="single",
        help="single: ledger_post_transfer, what the site calls for one transfer (default);"
        " batch: the same transfer as a one-leg batch through ledger_post_transfers",
    )
    parser.add_argument(
        "--mode",
        choices=["prepared", "extended", "simple"],
        default="prepared",
        help="pgbench -M, the same for both sides (default prepared)",
    )
    parser.add_argument(
        "--warmup", type=int, default=3, help="seconds of uncounted warm-up per side"
    )
    parser.add_argument("--keep", action="store_true", help="keep the scratch databases")
    add_server_argument(parser, "the scratch ones")
    args = parser.parse_args()
    if args.pgledger is not None:
        missing = [name for name in PGLEDGER_FILES if not (args.pgledger / name).is_file()]
        if missing:
            parser.error(f"{args.pgledger} is not a pgledger checkout (no {', '.join(missing)})")
    url = database_url(args.server, BENCH_DB)

    recreate(args.server, BENCH_DB, migrated=True)
    failures: list[str] = []
    try:
        django_setup(url)
        ids = prepare_wallets()
        first, count = ids[0], len(ids)
        if ids != list(range(first, first + count)):
            raise SystemExit("the benchmark wallets are not numbered contiguously")
        from django.db import connections

        connections.close_all()
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
            time.sleep(1.5)  # pending table statistics reach the shared counters
            updates_before, hot_before = _account_stats(conn)
            indexes = [
                row[0]
                for row in conn.execute(
                    "SELECT indexname FROM pg_indexes WHERE tablename = 'ledger_account'"
                    " ORDER BY indexname"
                )
            ]
            transfer_indexes = conn.execute(
                "SELECT count(*), count(*) FILTER (WHERE indexdef LIKE '%% WHERE %%')"
                " FROM pg_indexes WHERE tablename = 'ledger_transfer'"
            ).fetchone() or (0, 0)
            fillfactor = conn.execute(
                "SELECT coalesce(array_to_string(reloptions, ','), 'default')"
                " FROM pg_class WHERE relname = 'ledger_account'"
            ).fetchone()[0]
        pgledger_url = prepare_pgledger(args.server, args.pgledger) if args.pgledger else None

        function = FUNCTIONS[args.function]
        print(
            f"pgbench -M {args.mode}: {count} accounts, {args.clients} clients,"
            f" {args.threads} threads, {args.seconds} s per run ({args.warmup} s warm-up per"
            f" side, not counted), {os.cpu_count()} CPUs; ours: {function}"
        )
        script = SCRIPTS[args.function].format(first=first, last=count - 1, count=count)
        other = PGLEDGER_SCRIPT.format(last=WALLETS - 1, count=WALLETS)
        sides = [("ours", url, script, "SELECT last_value FROM ledger_transfer_id_seq")]
        if pgledger_url:
            sides.append(("pgledger", pgledger_url, other, PGLEDGER_COUNT))
        runs: dict[str, list[Run]] = {name: [] for name, *_rest in sides}
        warmups: dict[str, list[Run]] = {name: [] for name, *_rest in sides}
        labels = {"ours": f"{function:24s}", "pgledger": "pgledger_create_transfer"}
        if args.warmup > 0:
            for name, side_url, side_script, count_sql in sides:
                run = run_pgbench(side_url, side_script, count_sql, args, args.warmup)
                warmups[name].append(run)
        for round_ in range(args.rounds if pgledger_url else 1):
            # The side that goes first alternates: ABBA, so neither always follows the other.
            for name, side_url, side_script, count_sql in sides[:: 1 if round_ % 2 == 0 else -1]:
                print(f"load average {_load()} before {labels[name].strip()}")
                run = run_pgbench(side_url, side_script, count_sql, args, args.seconds)
                print(f"  {labels[name]} {run.tps:6.0f} transfers/s  {run.cpu_ms:6.3f}"
                      f" ms backend CPU per transfer  ({run.window})")  # fmt: skip
                runs[name].append(run)
        ours, theirs = runs["ours"], runs.get("pgledger", [])
        for run in ours + theirs:
            failures += run.failures
        for run in [*warmups["ours"], *warmups.get("pgledger", [])]:
            failures += [
                f"warm-up: {failure}" for failure in run.failures if "sampler" not in failure
            ]

        with psycopg.connect(url, autocommit=True) as conn:
            posted = conn.execute(
                "SELECT count(*) FROM ledger_transfer WHERE idempotency_key LIKE 'pgbench:%%'"
            ).fetchone()[0]
            time.sleep(1.5)
            updates, hot = _account_stats(conn)
            updates, hot = updates - updates_before, hot - hot_before
            buffers = _lock_query_buffers(conn, first)
        processed = sum(run.processed for run in ours + warmups["ours"])
        if processed != posted:
            failures.append(f"pgbench counted {processed} transfers, the table {posted}")

        tps, cpu = _median(ours, "tps"), _median(ours, "cpu_ms")
        print(f"transfers/s      {tps:8.0f}" + (" (median)" if len(ours) > 1 else ""))
        print(f"backend CPU      {cpu:8.3f} ms per transfer")
        print(f"transfers posted {posted:8d}")
        hot_share = hot / updates * 100 if updates else float("nan")
        print(f"HOT updates      {hot_share:8.1f} % of {updates} ledger_account updates")
        print(f"lock query       {buffers:8d} buffers (two accounts, after the run)")
        print(f"ledger_account   {len(indexes)} indexes ({', '.join(indexes)}); {fillfactor}")
        print(
            f"ledger_transfer  {transfer_indexes[0]} indexes, {transfer_indexes[1]} of them partial"
        )
        if pgledger_url:
            their_tps, their_cpu = _median(theirs, "tps"), _median(theirs, "cpu_ms")
            print(f"pgledger         {their_tps:8.0f} transfers/s, {their_cpu:.3f} ms backend CPU")
            print(f"ratio            {tps / their_tps:8.2f} x pgledger's transfers/s,"
                  f" {cpu / their_cpu:.2f} x its CPU per transfer")  # fmt: skip
            problems = audit_pgledger(
                pgledger_url, sum(run.processed for run in theirs + warmups["pgledger"])
            )
            print(f"pgledger audit   {problems or 'OK'}")
            failures += problems

        from ledger.audit import run_checks

        report = run_checks()
        print(f"ledger_check     {'OK' if report.ok else report.problems}")
        if not report.ok:
            failures.append(f"ledger_check found problems: {report.problems}")
        connections.close_all()
    finally:
        if not args.keep:
            recreate(args.server, BENCH_DB, drop_only=True)
            if args.pgledger:
                recreate(args.server, PGLEDGER_DB, drop_only=True)
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
