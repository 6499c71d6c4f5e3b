"""Ledger throughput on local PostgreSQL: transfers per second and rounds per second.

    /work/main/.venv/bin/python benchmarks/bench_ledger.py [--workers 8] [--seconds 8]

Creates a scratch database (maubinh_bench), migrates it, runs three phases with N worker
processes (each its own connection), runs the audit, prints the figures and drops the
database. No assertions: this measures, the tests judge.

Phases:
  transfers  one wallet-to-wallet transfer per transaction, random pairs of 1,000 wallets
  mints      one issuance-to-wallet transfer per transaction (hits the sharded issuance)
  rounds     4 players hold, then one settlement (payouts + 5% house fee) per round
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scratchdb import add_server_argument, database_url, recreate  # noqa: E402

BENCH_DB = "maubinh_bench"
WALLETS = 1_000


def django_setup(url: str) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "maubinh_site.settings",
            "DATABASE_URL": url,
            "DEBUG": "false",  # DEBUG would keep every query in memory
            "SECRET_KEY": "benchmark-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
            "HOUSE_FEE_PERCENT": "5",
        }
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


def prepare_wallets() -> list[int]:
    from django.core.management import call_command

    from accounts.models import User
    from ledger import services
    from ledger.keys import issuance_key, wallet_key

    call_command("migrate", verbosity=0)
    User.objects.bulk_create(User(username=f"bench{i}", password="!") for i in range(WALLETS))
    ids = list(User.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), 200):
        services.post_transfers(
            [
                services.Leg(
                    kind="signup_grant",
                    debit=issuance_key(f"signup_grant:{uid}"),
                    credit=wallet_key(uid),
                    amount=100_000,
                    key=f"signup_grant:{uid}",
                )
                for uid in ids[start : start + 200]
            ]
        )
    return ids


def _init_worker(url: str) -> None:
    django_setup(url)


def _warm(_n: int) -> None:
    # Sleeping tasks spread over every worker, so all have started Django before timing.
    time.sleep(0.5)


def _phase(name: str, seed: int, ids: list[int], start_at: float, seconds: float) -> dict[str, Any]:
    from django.db import connection

    from accounts.models import User
    from ledger import services
    from ledger.errors import LedgerError
    from ledger.keys import issuance_key, wallet_key

    rng = random.Random(seed)
    users = {u.pk: u for u in User.objects.filter(pk__in=ids)}
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    while time.time() < start_at:
        time.sleep(0.001)
    client_cpu, server_cpu = time.process_time(), cpu_seconds(backend)
    deadline = start_at + seconds
    ops = transfers = refused = 0
    latencies: list[float] = []
    n = 0
    while time.time() < deadline:
        n += 1
        began = time.perf_counter()
        try:
            if name == "transfers":
                src, dst = rng.sample(ids, 2)
                services.post_transfers(
                    [
                        services.Leg(
                            kind="adjustment",
                            debit=wallet_key(src),
                            credit=wallet_key(dst),
                            amount=rng.randint(1, 10),
                            key=f"t:{seed}:{n}",
                        )
                    ]
                )
                transfers += 1
            elif name == "mints":
                key = f"m:{seed}:{n}"
                services.post_transfers(
                    [
                        services.Leg(
                            kind="bot_topup",
                            debit=issuance_key(key),
                            credit=wallet_key(rng.choice(ids)),
                            amount=10,
                            key=key,
                        )
                    ]
                )
                transfers += 1
            else:
                round_id = seed * 10_000_000 + n
                players = rng.sample(ids, 4)
                for uid in players:
                    services.hold(round_id, users[uid], 100)
                a, b, c, d = players
                x, y = rng.randint(0, 100), rng.randint(0, 100)
                closure = services.settle_round(round_id, {a: x, b: -x, c: y, d: -y})
                transfers += 4 + sum(1 for v in (x, y) for _ in (0, 1)) + (1 if closure.fee else 0)
        except LedgerError:
            refused += 1
        ops += 1
        latencies.append(time.perf_counter() - began)
    client_cpu = time.process_time() - client_cpu
    server_cpu = cpu_seconds(backend) - server_cpu
    connection.close()
    return {
        "ops": ops,
        "transfers": transfers,
        "refused": refused,
        "latencies": latencies,
        "client_cpu": client_cpu,
        "server_cpu": server_cpu,
    }


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a local process, e.g. this worker's PostgreSQL backend."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")  # not a local server, or not allowed to look
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=8.0)
    add_server_argument(parser, BENCH_DB)
    args = parser.parse_args()
    url = database_url(args.server, BENCH_DB)

    recreate(args.server, BENCH_DB, migrated=True)
    try:
        django_setup(url)
        ids = prepare_wallets()
        from django.db import connections

        connections.close_all()
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(
            f"PostgreSQL {BENCH_DB}: {WALLETS} wallets, {args.workers} worker processes, "
            f"{args.seconds:g}s per phase, {os.cpu_count()} CPUs, load average {load} before"
        )
        context = multiprocessing.get_context("spawn")
        with context.Pool(args.workers, initializer=_init_worker, initargs=(url,)) as pool:
            pool.map(_warm, range(args.workers * 2), chunksize=1)
            for phase in ("transfers", "mints", "rounds"):
                start_at = time.time() + 1.0
                jobs = [(phase, n + 1, ids, start_at, args.seconds) for n in range(args.workers)]
                results = pool.starmap(_phase, jobs)
                ops = sum(r["ops"] for r in results)
                transfers = sum(r["transfers"] for r in results)
                refused = sum(r["refused"] for r in results)
                lat = sorted(x for r in results for x in r["latencies"])
                p50 = statistics.median(lat) * 1000
                p99 = lat[int(len(lat) * 0.99) - 1] * 1000
                unit = "rounds" if phase == "rounds" else "transfers"
                print(
                    f"{phase:9s} {ops / args.seconds:8.0f} {unit}/s"
                    f"  ({transfers / args.seconds:.0f} transfers/s; p50 {p50:.1f} ms,"
                    f" p99 {p99:.1f} ms per {unit[:-1]}; {refused} refused)"
                )
                # The VM is shared: what one operation costs in CPU says more than a rate
                # that moves with the neighbours' load. (WAL writer etc. not counted.)
                client = sum(r["client_cpu"] for r in results) / ops * 1000
                server = sum(r["server_cpu"] for r in results) / ops * 1000
                cores = os.cpu_count() or 1
                print(
                    f"{'':9s} CPU per {unit[:-1]}: client {client:.2f} ms + PostgreSQL backend"
                    f" {server:.2f} ms -> at most ~{cores * 1000 / (client + server):.0f}"
                    f" {unit}/s if {cores} idle cores did nothing else"
                )
        from ledger.audit import run_checks

        began = time.perf_counter()
        report = run_checks()
        print(
            f"ledger_check: {'OK' if report.ok else report.problems} in "
            f"{time.perf_counter() - began:.1f}s over {report.figures['transfers']} transfers"
        )
    finally:
        from django.db import connections

        connections.close_all()
        recreate(args.server, BENCH_DB, drop_only=True)


if __name__ == "__main__":
    main()
