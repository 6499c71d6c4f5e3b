"""The ledger's hot path under pgbench: single transfers through ``ledger_post_transfers``.

    /work/main/.venv/bin/python benchmarks/bench_ledger_pgbench.py [--clients 8] [--seconds 30]

The workload a ledger is compared on (pgledger's is the same shape): N pgbench clients,
each transaction one wallet-to-wallet transfer of 1–10 xu between two random accounts of
1,000, posted by one call of the PL/pgSQL function the site uses. Creates a scratch
database (maubinh_pgbench), migrates it, grants the wallets, runs pgbench, and prints:

- transfers per second (pgbench's own count, checked against the transfers table);
- PostgreSQL backend CPU per transfer (user + system time of pgbench's backends, from
  /proc, over a window in which the transfers are counted from the id sequence);
- the share of ``ledger_account`` balance updates that took the in-place (HOT) path;
- the buffers the account lock query reads after the run, and the account indexes.

It exits non-zero when any transaction failed or the ledger audit finds a difference:
a figure measured on a partly failed load is wrong. The database is dropped at the end
unless ``--keep``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_ledger import cpu_seconds, django_setup, prepare_wallets  # noqa: E402
from benchmarks.scratchdb import database_url, recreate  # noqa: E402

BENCH_DB = "maubinh_pgbench"

# One transfer per transaction. The key is unique per transaction, so every call posts.
SCRIPT = """\
\\set a random(0, {last})
\\set step random(1, {last})
\\set amount random(1, 10)
SELECT count(*) FROM ledger_post_transfers(
  jsonb_build_array(jsonb_build_object(
    'kind', 'adjustment',
    'debit', 'wallet:' || ({first} + :a),
    'credit', 'wallet:' || ({first} + (:a + :step) % {count}),
    'amount', :amount,
    'reason', '',
    'key', 'pgbench:' || :client_id || ':' || gen_random_uuid()
  )),
  now()
);
"""


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
    """Samples pgbench's backends' CPU and the transfer id sequence while pgbench runs.

    The per-transfer CPU is taken between the first sample with every client connected
    and the last sample before any of them leaves, so connection set-up and tear-down
    are not counted, and transfers are counted over exactly that window.
    """

    def __init__(self, url: str, clients: int) -> None:
        super().__init__(daemon=True)
        self.url, self.clients = url, clients
        self.samples: list[tuple[float, float, int]] = []  # (time, cpu seconds, last id)
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
                if len(pids) == self.clients:
                    cpu = sum(cpu_seconds(pid) for pid in pids)
                    last = conn.execute("SELECT last_value FROM ledger_transfer_id_seq").fetchone()
                    self.samples.append((time.monotonic(), cpu, int(last[0])))
                elif self.samples:
                    return  # a client left: pgbench is finishing
                time.sleep(0.5)


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2, help="pgbench -j")
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument(
        "--server",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://maubinh:maubinh@127.0.0.1:5432/"),
        help="PostgreSQL server URL (the database name is replaced by maubinh_pgbench)",
    )
    args = parser.parse_args()
    url = database_url(args.server, BENCH_DB)

    recreate(args.server, BENCH_DB)
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
            fillfactor = conn.execute(
                "SELECT coalesce(array_to_string(reloptions, ','), 'default')"
                " FROM pg_class WHERE relname = 'ledger_account'"
            ).fetchone()[0]

        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"pgbench on {BENCH_DB}: {count} wallets, {args.clients} clients, {args.threads}"
            f" threads, {args.seconds} s, {os.cpu_count()} CPUs, load average {load} before"
        )
        with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
            script.write(SCRIPT.format(first=first, last=count - 1, count=count))
        sampler = BackendSampler(url, args.clients)
        sampler.start()
        bench = subprocess.run(
            [
                "pgbench", "--no-vacuum", "-n", "-f", script.name,
                "-c", str(args.clients), "-j", str(args.threads), "-T", str(args.seconds),
            ],
            env=_pg_env(url), capture_output=True, text=True, check=False,
        )  # fmt: skip
        sampler.done.set()
        sampler.join()
        os.unlink(script.name)
        if bench.returncode != 0:
            failures.append(f"pgbench exited {bench.returncode}: {bench.stderr.strip()[-500:]}")
        tps = re.search(r"tps = ([\d.]+) \(without initial connection time\)", bench.stdout)
        processed = re.search(r"number of transactions actually processed: (\d+)", bench.stdout)
        failed = re.search(r"number of failed transactions: (\d+)", bench.stdout)
        if failed and int(failed.group(1)):
            failures.append(f"{failed.group(1)} transactions failed")
        if not tps or not processed:
            failures.append("pgbench printed no throughput")
            print(bench.stdout[-2000:], bench.stderr[-2000:], sep="\n")

        with psycopg.connect(url, autocommit=True) as conn:
            posted = conn.execute(
                "SELECT count(*) FROM ledger_transfer WHERE idempotency_key LIKE 'pgbench:%%'"
            ).fetchone()[0]
            time.sleep(1.5)
            updates, hot = _account_stats(conn)
            updates, hot = updates - updates_before, hot - hot_before
            buffers = _lock_query_buffers(conn, first)
        if processed and int(processed.group(1)) != posted:
            failures.append(f"pgbench counted {processed.group(1)} transfers, the table {posted}")

        window = sampler.samples
        if len(window) >= 2:
            (t0, cpu0, id0), (t1, cpu1, id1) = window[0], window[-1]
            per_transfer = (cpu1 - cpu0) / max(1, id1 - id0) * 1000
            rate = (id1 - id0) / (t1 - t0)
            print(
                f"transfers/s      {float(tps.group(1)) if tps else float('nan'):8.0f}"
                f"  (sampled window: {rate:.0f}/s over {t1 - t0:.1f} s)"
            )
            print(f"backend CPU      {per_transfer:8.3f} ms per transfer")
        else:
            failures.append("the sampler never saw every client connected")
        print(f"transfers posted {posted:8d}")
        hot_share = hot / updates * 100 if updates else float("nan")
        print(f"HOT updates      {hot_share:8.1f} % of {updates} ledger_account updates")
        print(f"lock query       {buffers:8d} buffers (two accounts, after the run)")
        print(f"ledger_account   {len(indexes)} indexes ({', '.join(indexes)}); {fillfactor}")

        from ledger.audit import run_checks

        report = run_checks()
        print(f"ledger_check     {'OK' if report.ok else report.problems}")
        if not report.ok:
            failures.append(f"ledger_check found problems: {report.problems}")
        connections.close_all()
    finally:
        if not args.keep:
            recreate(args.server, BENCH_DB, drop_only=True)
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
