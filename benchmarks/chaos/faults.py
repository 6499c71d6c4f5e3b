"""The faults of a chaos run: a seeded schedule with every kind at least once, and their
injection into the running stack (signals, terminated connections, timer tasks sent
again or out of date)."""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import time
from dataclasses import dataclass
from typing import Any

import psycopg

from benchmarks.chaos import log
from benchmarks.chaos.monitor import Monitor
from benchmarks.chaos.stack import Service, Stack

KINDS = (
    "daphne_kill",
    "worker_kill",
    "worker_stop",
    "beat_kill",
    "redis_restart",
    "pg_terminate",
    "timer_duplicate",
    "timer_stale",
)
# Faults that touch every table (the broker, every timer or every connection at once).
GLOBAL_KINDS = {"redis_restart", "worker_kill", "beat_kill", "pg_terminate"}


@dataclass
class Fault:
    kind: str
    at: float  # seconds after the start (scheduled)
    started: float = 0.0  # wall clock
    ended: float = 0.0
    detail: str = ""
    injected: bool = False


def make_schedule(rng: random.Random, options: argparse.Namespace) -> list[Fault]:
    start, end = options.warmup, options.minutes * 60 - options.tail
    if end - start < len(KINDS) * 8:
        raise SystemExit("the run is too short for every fault kind: raise --minutes")
    count = max(len(KINDS), round(options.faults_per_minute * (end - start) / 60))
    others = list(KINDS[1:]) + [rng.choice(KINDS) for _ in range(count - len(KINDS))]
    rng.shuffle(others)
    kinds = ["daphne_kill", *others]  # the first: the dropping player's daphne
    slot = (end - start) / count
    return [
        Fault(kind, start + slot * i + rng.uniform(0, slot * 0.4)) for i, kind in enumerate(kinds)
    ]


class Injector:
    def __init__(
        self,
        stack: Stack,
        monitor: Monitor,
        database_url: str,
        rng: random.Random,
        options: argparse.Namespace,
    ) -> None:
        self.stack, self.monitor, self.url = stack, monitor, database_url
        self.rng, self.options = rng, options
        self.timer_deliveries = 0
        self.celery: Any = None

    def _celery(self) -> Any:
        if self.celery is None:
            from maubinh_site.celery import app

            self.celery = app
        return self.celery

    async def inject(self, fault: Fault, first_daphne: int | None = None) -> None:
        fault.started = time.time()
        try:
            handler = getattr(self, fault.kind)
            if fault.kind == "daphne_kill":
                fault.detail = await handler(first_daphne)
            else:
                fault.detail = await handler()
            fault.injected = True
        except Exception as exc:  # a fault that could not be injected is a finding
            fault.detail = f"could not inject: {exc!r}"
        fault.ended = time.time()
        log(f"fault {fault.kind}: {fault.detail}")

    async def daphne_kill(self, index: int | None) -> str:
        index = self.rng.randrange(len(self.stack.daphnes)) if index is None else index
        self.stack.daphnes[index].signal(signal.SIGKILL)
        return f"daphne{index} killed"

    async def worker_kill(self) -> str:
        worker = self.rng.choice(self.stack.workers)
        worker.signal(signal.SIGKILL)
        return f"{worker.name} killed (main process and pool)"

    async def beat_kill(self) -> str:
        self.stack.beat.signal(signal.SIGKILL)
        return "beat killed"

    async def redis_restart(self) -> str:
        self.stack.redis.signal(signal.SIGKILL)
        return "redis killed; restarts empty"

    async def worker_stop(self) -> str:
        worker = self.rng.choice([w for w in self.stack.workers if w.alive()])
        held = await asyncio.to_thread(self._stop_inside_transaction, worker)
        seconds = self.options.stop_seconds * self.rng.uniform(0.85, 1.15)
        await asyncio.sleep(seconds)
        worker.signal(signal.SIGCONT)
        where = "holding a table lock" if held else "(no table lock caught)"
        return f"{worker.name} stopped {where} for {seconds:.1f} s"

    def _stop_inside_transaction(self, worker: Service) -> bool:
        """SIGSTOP the worker; keep it stopped once one of its backends sits idle inside a
        transaction that locked a table row (the stopped process holds the lock), else
        resume it and try again; after 8 s, stop it wherever it is."""
        with psycopg.connect(self.url, autocommit=True, application_name="chaos-harness") as db:
            deadline = time.monotonic() + 8
            while time.monotonic() < deadline:
                worker.signal(signal.SIGSTOP)
                time.sleep(0.05)
                first = self._holding_a_table(db)
                time.sleep(0.1)
                if first & self._holding_a_table(db):
                    return True
                worker.signal(signal.SIGCONT)
                time.sleep(self.rng.uniform(0.02, 0.15))
            worker.signal(signal.SIGSTOP)
            return False

    @staticmethod
    def _holding_a_table(db: psycopg.Connection[Any]) -> set[tuple[int, Any]]:
        """Backends idle in a transaction holding a row lock on games_table (FOR UPDATE
        takes a RowShareLock on the relation, which pg_locks shows)."""
        rows = db.execute(
            "SELECT a.pid, a.state_change FROM pg_stat_activity a WHERE a.datname = "
            "current_database() AND a.state = 'idle in transaction' AND a.pid <> "
            "pg_backend_pid() AND EXISTS (SELECT 1 FROM pg_locks l JOIN pg_class c ON "
            "c.oid = l.relation WHERE l.pid = a.pid AND c.relname = 'games_table' "
            "AND l.mode = 'RowShareLock' AND l.granted)"
        ).fetchall()
        return {(pid, changed) for pid, changed in rows}

    async def pg_terminate(self) -> str:
        total = await asyncio.to_thread(self._terminate_loop, 5.0)
        return f"{total} app connections terminated over 5 s"

    def _terminate_loop(self, seconds: float) -> int:
        total = 0
        with psycopg.connect(self.url, autocommit=True, application_name="chaos-harness") as db:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                total += db.execute(
                    "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) "
                    "FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid() AND application_name NOT IN "
                    "('chaos-monitor', 'chaos-harness')"
                ).fetchone()[0]  # type: ignore[index]
                time.sleep(0.5)
        return total

    def _send_all(self, tasks: list[tuple[str, list[Any]]]) -> int:
        """Publish timer tasks (in a thread: a broker that is down must not stall the players)."""
        sent = 0
        for name, args in tasks:
            try:
                self._celery().send_task(name, args=args, retry=False)
            except Exception:
                continue
            sent += 1
        self.timer_deliveries += sent
        if tasks and not sent:
            raise RuntimeError("the broker took none of the timer tasks")
        return sent

    def _tournament_timers(self, stale: bool) -> list[tuple[str, list[Any]]]:
        """The tournaments' timers: current ones twice more (a table step, a pairing, an
        arena table's end, the arena's end: each must act once, or wait for its time), or
        stale ones (bots and a start for a tournament that started, the end of an arena
        table already over)."""
        ids = list(self.monitor.tournaments)
        if not ids:
            return []
        with psycopg.connect(self.url, autocommit=True, application_name="chaos-harness") as db:
            rows = db.execute(
                "SELECT t.id, t.kind, t.state, l.table_id, l.broken_at IS NOT NULL "
                "FROM tournaments_tournament t LEFT JOIN tournaments_tournamenttable l "
                "ON l.tournament_id = t.id WHERE t.id = ANY(%s)",
                (ids,),
            ).fetchall()
        long_ago = "2020-01-01T00:00:00+00:00"
        tasks: list[tuple[str, list[Any]]] = []
        for tournament_id in {r[0] for r in rows if r[2] == "running"}:
            arena = any(r[1] == "arena" for r in rows if r[0] == tournament_id)
            if stale:
                name = "tournaments.arena_start" if arena else "tournaments.fill_with_bots"
                tasks.append((name, [tournament_id, long_ago]))
            elif arena:
                tasks += [("tournaments.arena_pair", [tournament_id])] * 2
                tasks += [("tournaments.arena_end", [tournament_id])] * 2
            else:
                tasks += [("tournaments.table_step", [tournament_id])] * 2
        for tournament_id, kind, _state, table_id, broken in rows:
            if kind == "arena" and table_id is not None and broken == stale:
                copies = 1 if stale else 2
                tasks += [("tournaments.arena_finish_table", [tournament_id, table_id])] * copies
        return tasks

    async def timer_duplicate(self) -> str:
        with self.monitor.lock:
            live, countdowns = list(self.monitor.live), list(self.monitor.countdowns)
        tasks: list[tuple[str, list[Any]]] = []
        for round_id, _table, state, phase in live:
            tasks += [("games.advance_round", [round_id, state, phase])] * 2
        for table_id, start_at in countdowns:
            tasks += [("games.start_round_when_due", [table_id, start_at])] * 2
        tasks += await asyncio.to_thread(self._tournament_timers, False)
        sent = await asyncio.to_thread(self._send_all, tasks)
        return f"{sent} of {len(tasks)} duplicate timer tasks sent"

    async def timer_stale(self) -> str:
        with self.monitor.lock:
            live, settled = list(self.monitor.live), list(self.monitor.recent_settled)
            countdowns = list(self.monitor.countdowns)
        tasks: list[tuple[str, list[Any]]] = []
        for round_id, _table, state, phase in live:
            tasks += [("games.advance_round", [round_id, state, old]) for old in range(1, phase)]
            if state == "showdown":
                tasks.append(("games.advance_round", [round_id, "arranging", 1]))
        for round_id, settling_phase in settled:
            tasks.append(("games.advance_round", [round_id, "showdown", settling_phase]))
            tasks.append(("games.advance_round", [round_id, "arranging", 1]))
        for table_id, start_at in countdowns:
            tasks.append(("games.start_round_when_due", [table_id, "2020-01-01T00:00:00+00:00"]))
            # The same wall-clock time in another zone: another instant, so stale.
            tasks.append(("games.start_round_when_due", [table_id, start_at[:-6] + "+07:00"]))
        tasks += await asyncio.to_thread(self._tournament_timers, True)
        sent = await asyncio.to_thread(self._send_all, tasks)
        return f"{sent} of {len(tasks)} stale timer tasks sent"
