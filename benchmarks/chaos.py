"""Chaos: the multi-process stack under a seeded schedule of faults, with its invariants checked.

    .venv/bin/python benchmarks/chaos.py [--minutes 30] [--seed 1] [--tables 20]
        [--player-tables 3] [--faults-per-minute 1] [--keep] [--database-url URL]

Starts, on a scratch PostgreSQL database and a private Redis (a ``redis-server`` child on a
free port, so it can be killed and restarted empty): 2 daphne, 2 prefork Celery workers and
a Celery beat, each restarted one second after it dies, as systemd's ``Restart=always``
would. Plays ``--tables`` bot-only tables and ``--player-tables`` tables of 4 scripted
websocket players (auto-arrange, 0.5-3 s of thinking, a ping every 15 s, reconnecting
through the other daphne as a proxy would, resending an unanswered submission with the same
``ref``). One scripted player drops and never returns: its connection is aborted (no close
frame) a few seconds after the first fault, a daphne kill of its own daphne.

The faults, in a seeded schedule with every kind at least once (``--faults-per-minute`` in
all; none in the first ``--warmup`` or the last ``--tail`` seconds):

    daphne_kill      kill -9 a daphne; its clients reconnect
    worker_kill      kill -9 a worker (main process and pool)
    worker_stop      SIGSTOP a worker, caught holding a table's row lock when possible; SIGCONT
                     after ``--stop-seconds``
    beat_kill        kill -9 the beat
    redis_restart    kill -9 Redis; it comes back empty
    pg_terminate     pg_terminate_backend on every app connection, every 0.5 s for 5 s
    timer_duplicate  every live round's and countdown's current timer task, sent twice more
    timer_stale      timer tasks of past phases and countdowns, for live and settled rounds

It prints, per fault kind: count, recovery time (until every round live at the fault ends;
until every table that was playing settles a round after it), the longest stretch with no
settlement anywhere, and tables overdue (a phase deadline or a countdown passed with nothing
done); overall: rounds settled, voided, stuck, settled twice, holds without a live round,
xu lost by an absent player and ``ledger_check``. It exits 1 when an invariant breaks:

- an absent player (no connection for 30 s + one sweep) dealt in, or xu lost by one;
- a round settled twice, a stuck round or countdown, a hold without a live round;
- a fault kind not recovered within ``--recover-within`` (25 s): a round live at the fault
  ends later, a table overdue longer, or a table settles nothing new for longer than that
  plus its usual gap between settlements;
- a table the fault did not touch stalled over ``--stall-limit`` (10 s) (for redis_restart,
  worker_kill, beat_kill and pg_terminate every table is touched; a stopped worker touches
  at most one table per pool process);
- ``ledger_check`` fails;
- the load did not run: a failed connection (none for 30 s), a player task that stopped,
  an error reply (a submit answered ``server_error`` is resent with its ref, as the page
  does, and counts only if it is never acknowledged), a submission never acknowledged, a
  present player stood up, a process that died without a fault, a fault that could not
  be injected.

Rounds that wait for an absent player's arranging deadline are left out of the recovery
times (they are slow by design) and counted in the absent-player figures instead. A round
ends when it is settled, or voided/cancelled (any state other than arranging, showdown or
settled counts as voided, with the ledger's voided closures). Logs of every process go to
``--logs``; the scratch database is dropped unless ``--keep``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path
from typing import Any

import psycopg
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import scratchdb  # noqa: E402
from tests.processes import PYTHON, collect_static, free_port, site_env  # noqa: E402

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
LIVE = ("arranging", "showdown")
AWAY_SECONDS = 30.0  # docs/protocol.md: no connection for 30 s -> stood up at the next deal
SWEEP_SECONDS = 2.0  # the games sweep's beat interval (settings.CELERY_BEAT_SCHEDULE)
DEFAULT_SERVER = os.environ.get(
    "TEST_DATABASE_URL", "postgres://maubinh:maubinh@127.0.0.1:5432/maubinh"
)


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())}] {message}", flush=True)


# --- Processes under a supervisor --------------------------------------------------------


class Service:
    """A child process (in its own process group) that the supervisor restarts when it dies."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], logfile: Path) -> None:
        self.name, self.args, self.env, self.logfile = name, args, env, logfile
        self.proc: subprocess.Popen[bytes] | None = None
        self.expect_exit = False  # a fault killed it: not an unplanned death
        self.starts = 0
        self.deaths: list[tuple[float, int | None, bool]] = []  # (when, code, planned)
        self.died_at: float | None = None
        self.log_offset = 0

    def start(self) -> None:
        self.log_offset = self.logfile.stat().st_size if self.logfile.exists() else 0
        with self.logfile.open("ab") as out:
            self.proc = subprocess.Popen(
                self.args,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.starts += 1
        self.expect_exit = False
        self.died_at = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int, planned: bool = True) -> None:
        if self.alive():
            if sig in (signal.SIGKILL, signal.SIGTERM):
                self.expect_exit = planned
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, sig)

    def new_log(self) -> str:
        if not self.logfile.exists():
            return ""
        with self.logfile.open("rb") as f:
            f.seek(self.log_offset)
            return f.read().decode(errors="replace")

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGCONT)
            os.killpg(self.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


class Stack:
    """Redis, 2 daphne, 2 workers and beat, restarted as a supervisor would."""

    def __init__(self, options: argparse.Namespace, database_url: str, logs: Path) -> None:
        self.options = options
        self.logs = logs
        self.redis_port = free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.env = site_env(
            DATABASE_URL=database_url,
            REDIS_URL=self.redis_url,
            REDIS_PREFIX="chaos",
            LOG_LEVEL="WARNING",
            CELERY_LOG_LEVEL="WARNING",
        )
        self.redis = Service(
            "redis",
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(logs)],
            self.env,
            logs / "redis.log",
        )  # fmt: skip
        self.daphne_ports = [free_port() for _ in range(options.daphne)]
        self.bases = [f"http://127.0.0.1:{port}" for port in self.daphne_ports]
        self.daphnes = [
            Service(
                f"daphne{i}",
                [
                    PYTHON,
                    "-m",
                    "daphne",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "maubinh_site.asgi:application",
                ],
                {**self.env, "PGAPPNAME": f"chaos-daphne{i}"},
                logs / f"daphne{i}.log",
            )
            for i, port in enumerate(self.daphne_ports)
        ]
        self.workers = [
            Service(
                f"worker{i + 1}",
                [
                    PYTHON,
                    "-m",
                    "celery",
                    "-A",
                    "maubinh_site",
                    "worker",
                    "--pool=prefork",
                    f"--concurrency={options.concurrency}",
                    "--loglevel=INFO",
                    f"--hostname=w{i + 1}@%h",
                    "--without-gossip",
                    "--without-mingle",
                ],
                {**self.env, "PGAPPNAME": f"chaos-worker{i + 1}"},
                logs / f"worker{i + 1}.log",
            )
            for i in range(options.workers)
        ]
        self.beat = Service(
            "beat",
            [PYTHON, "-m", "celery", "-A", "maubinh_site", "beat", "--loglevel=INFO",
             f"--schedule={logs / 'beat-schedule'}"],
            {**self.env, "PGAPPNAME": "chaos-beat"},
            logs / "beat.log",
        )  # fmt: skip
        self.services = [self.redis, *self.daphnes, *self.workers, self.beat]
        self.supervising = False

    def start(self) -> None:
        collect_static(self.env)
        self.redis.start()
        self._wait(lambda: _redis_ping(self.redis_port), "redis", self.redis)
        for service in [*self.daphnes, *self.workers, self.beat]:
            service.start()
        for daphne, base in zip(self.daphnes, self.bases, strict=True):
            self._wait(lambda b=base: _http_ok(b + "/healthz"), daphne.name, daphne)
        for worker in self.workers:
            self._wait(lambda w=worker: "ready." in w.new_log(), worker.name, worker)

    def _wait(self, ready: Any, name: str, service: Service, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            if not service.alive() or time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start:\n{service.new_log()[-3000:]}")
            time.sleep(0.2)

    async def supervise(self) -> None:
        """Restart whatever died, a second later (systemd's Restart=always, RestartSec=1)."""
        self.supervising = True
        while self.supervising:
            for service in self.services:
                if service.proc is None or service.alive():
                    continue
                now = time.time()
                if service.died_at is None:
                    service.died_at = now
                    service.deaths.append((now, service.proc.returncode, service.expect_exit))
                    if not service.expect_exit:
                        log(f"{service.name} died by itself (exit {service.proc.returncode})")
                elif now - service.died_at >= self.options.restart_delay:
                    service.start()
            await asyncio.sleep(0.25)

    def stop(self) -> None:
        self.supervising = False
        for service in reversed(self.services):
            service.stop()


def _redis_ping(port: int) -> bool:
    import redis

    try:
        return bool(redis.Redis(port=port, socket_timeout=1).ping())
    except redis.RedisError:
        return False


def _http_ok(url: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        urllib.request.urlopen(url, timeout=2).close()
        return True
    except urllib.error.HTTPError:
        return True  # it answers (503 while a dependency is down)
    except (urllib.error.URLError, OSError):
        return False


# --- Setting up the tables ---------------------------------------------------------------


@dataclass
class Seating:
    table_id: int
    players: list[tuple[int, str, str]]  # (user id, username, session key)


def prepare(env: dict[str, str], options: argparse.Namespace) -> tuple[list[int], list[Seating]]:
    """In this process: migrate, open the bot-only tables, create the scripted players."""
    os.environ.update(env)
    os.environ["PGAPPNAME"] = "chaos-harness"
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.test import override_settings

    from accounts.models import User
    from bots import services as bots
    from games import services as games
    from ledger.services import adjust_balance, grant_signup_bonus

    call_command("migrate", verbosity=0)
    rules: dict[str, object] = {"reveal_seconds": 2, "arrange_seconds": 30, "start_seconds": 5}
    bot_tables = []
    for number in range(options.tables):
        table = bots.open_bot_only_table(
            f"Chaos bots {number + 1}", stake=10, seats=4, rules_overrides=rules
        )
        bots.fill_table(table.pk, [])
        bot_tables.append(table.pk)
    seatings = []
    staff = User.objects.create_user(username="chaos-staff", is_staff=True)
    for t in range(options.player_tables):
        users = [User.objects.create_user(username=f"chaos{t}p{k}") for k in range(4)]
        for user in users:
            grant_signup_bonus(user)
            # Enough for a long run: a present player stood up for balance_too_low would
            # count as load that did not run. The bankroll is the harness's set-up, not a
            # staff decision, so the one-admin daily minting limit is lifted for it alone.
            with override_settings(MODERATION_ADMIN_SOLO_LIMIT_XU=10**12):
                adjust_balance(user, 90_000, reason="chaos run bankroll", actor=staff)
        table = games.create_table(
            users[0], name=f"Chaos players {t + 1}", stake=10, rules_overrides=rules
        )
        players = []
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            players.append((user.pk, user.username, session.session_key or ""))
        seatings.append(Seating(table.pk, players))
    from django.db import connections

    connections.close_all()
    return bot_tables, seatings


def arrange(cards: list[str]) -> list[list[str]]:
    from games.rules import Rules, format_cards, parse_cards
    from games.rules.arrange import suggest

    best = suggest(parse_cards(cards), Rules.preset("portal"), n=1)[0]
    return [format_cards(part) for part in best.chi]


# --- Scripted players ---------------------------------------------------------------------


@dataclass
class LoadStats:
    errors: Counter[str] = field(default_factory=Counter)
    resent: Counter[str] = field(default_factory=Counter)  # failed submits, then resent
    submitted: int = 0
    lost_submissions: int = 0
    failed_connections: int = 0
    reconnects: int = 0
    connect_attempts_failed: int = 0
    stopped_players: list[str] = field(default_factory=list)
    stood_up: Counter[str] = field(default_factory=Counter)  # present players, by reason
    settled_seen_twice: int = 0
    gaps: int = 0


class ScriptedPlayer:
    """A browser tab at a table: sits, arranges, submits, pings, reconnects."""

    def __init__(
        self,
        user_id: int,
        name: str,
        session_key: str,
        table_id: int,
        bases: list[str],
        home: int,
        rng: random.Random,
        stats: LoadStats,
    ) -> None:
        self.user_id, self.name, self.table_id = user_id, name, table_id
        self.cookie = f"sessionid={session_key}"
        self.bases, self.home, self.rng, self.stats = bases, home, rng, stats
        self.ws: Any = None
        self.version = 0
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.submitted: set[int] = set()
        self.submitting: dict[int, asyncio.Task[None]] = {}
        self.ended: dict[int, bool] = {}  # round id -> my arrangement was in (from snapshots)
        self.settled_seen: dict[int, int] = {}
        self.dropped = False
        self.stopping = False
        self.absences: list[list[float | None]] = []  # [start, end]: no connection
        self.attempt = 0
        self.background: set[asyncio.Future[Any]] = set()

    # The connection ---------------------------------------------------------------------

    async def run(self, stop_at: float) -> None:
        down_since: float | None = None
        failed_reported = False
        while not self.stopping and not self.dropped and time.time() < stop_at:
            base = self.bases[(self.home + self.attempt) % len(self.bases)]
            url = base.replace("http://", "ws://") + f"/ws/tables/{self.table_id}/"
            try:
                ws = await websockets.connect(
                    url,
                    additional_headers={"Cookie": self.cookie},
                    origin=base,  # type: ignore[arg-type]
                    open_timeout=10,
                    max_size=2**22,
                )
            except (OSError, TimeoutError, websockets.WebSocketException):
                self.stats.connect_attempts_failed += 1
                now = time.time()
                down_since = down_since or now
                if now - down_since > 30 and not failed_reported:
                    self.stats.failed_connections += 1
                    failed_reported = True
                    log(f"{self.name}: no connection for 30 s")
                self.attempt += 1
                await asyncio.sleep(
                    min(4.0, 0.25 * 2 ** min(self.attempt, 4)) * self.rng.uniform(0.75, 1.25)
                )
                continue
            if self.absences and self.absences[-1][1] is None:
                self.absences[-1][1] = time.time()
                self.stats.reconnects += 1
            down_since, failed_reported = None, False
            self.ws = ws
            pinger = asyncio.create_task(self._ping())
            try:
                async for raw in ws:
                    self._handle(json.loads(raw))
            except websockets.ConnectionClosed:
                pass
            finally:
                pinger.cancel()
                self.ws = None
                for future in self.pending.values():
                    if not future.done():
                        future.set_exception(ConnectionError("closed"))
                self.pending.clear()
            if not self.stopping:
                self.absences.append([time.time(), None])
                self.attempt += 1  # try the other daphne first, as a proxy would
                await asyncio.sleep(0.2)
        if self.absences and self.absences[-1][1] is None and not self.dropped:
            self.absences[-1][1] = time.time()

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(15)
            await self._send({"type": "ping", "ref": f"{self.name}:ping"})

    async def _send(self, message: dict[str, Any]) -> bool:
        if self.ws is None:
            return False
        try:
            await self.ws.send(json.dumps(message))
            return True
        except websockets.ConnectionClosed:
            return False

    def drop(self) -> None:
        """Gone for good: the TCP connection is cut, no close frame, never back."""
        self.dropped = True
        self.absences.append([time.time(), None])
        if self.ws is not None:
            self.ws.transport.abort()

    async def close(self) -> None:
        self.stopping = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)

    # Messages ---------------------------------------------------------------------------

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        ref = message.get("ref")
        if kind in ("ok", "error") and ref in self.pending:
            future = self.pending.pop(ref)
            if not future.done():
                future.set_result(message)
            return
        if kind == "error":
            # Refs name the request: "chaos0p1:ping" -> "ping:server_error".
            request = str(ref).rpartition(":")[2] if ref else "?"
            self.stats.errors[f"{request}:{message.get('code', '?')}"] += 1
            return
        version = message.get("version")
        if kind == "snapshot":
            self.version = message["version"]  # the answer to a request, or on connect
            self._on_snapshot(message)
            return
        if isinstance(version, int):
            if self.version and version > self.version + 1:
                self.stats.gaps += 1
                self.version = version
                self._later(self._send({"type": "snapshot", "ref": f"{self.name}:snapshot"}))
                return
            self.version = max(self.version, version)
        if kind == "cards":
            self._want_submission(message["round"], message["cards"])
        elif kind == "settled":
            round_id = message.get("round") or (message.get("summary") or {}).get("round")
            if round_id is not None:
                if round_id in self.settled_seen and self.settled_seen[round_id] != version:
                    self.stats.settled_seen_twice += 1
                self.settled_seen[round_id] = version or 0
        elif kind == "seat_left" and message.get("user") == self.user_id:
            if not self.dropped:
                self.stats.stood_up[message.get("reason", "?")] += 1
                log(f"{self.name} stood up while present: {message.get('reason')}")
            self._later(self._send({"type": "snapshot", "ref": f"{self.name}:snapshot"}))

    def _on_snapshot(self, snapshot: dict[str, Any]) -> None:
        if not snapshot["you"]["seated"] and not self.dropped:
            self._later(self._send({"type": "sit", "ref": f"{self.name}:sit"}))
        current = snapshot.get("round")
        if not current or not current.get("you"):
            return
        mine = current["you"]
        if mine["arrangement"] is not None:
            self.submitted.add(current["id"])
        if current["state"] != "arranging":
            self.ended[current["id"]] = mine["arrangement"] is not None
        elif mine["arrangement"] is None and mine["status"] == "playing":
            self._want_submission(current["id"], mine["cards"])

    def _later(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def _want_submission(self, round_id: int, cards: list[str]) -> None:
        if round_id in self.submitted or round_id in self.submitting or self.dropped:
            return
        self.submitting[round_id] = asyncio.ensure_future(self._submit(round_id, cards))

    async def _submit(self, round_id: int, cards: list[str]) -> None:
        """Submit until acknowledged, resending with the same ref (the page does the same)."""
        await asyncio.sleep(self.rng.uniform(0.5, 3.0))
        chi = await asyncio.to_thread(arrange, cards)
        ref = f"{self.name}:submit{round_id}"
        give_up = time.time() + 40
        while time.time() < give_up and not self.dropped and not self.stopping:
            if round_id in self.submitted:
                return  # a snapshot showed it arrived
            if round_id in self.ended:
                break  # the round moved on without it
            if self.ws is None:
                await asyncio.sleep(0.2)
                continue
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.pending[ref] = future
            sent = await self._send({"type": "submit", "ref": ref, "round": round_id, "chi": chi})
            if not sent:
                self.pending.pop(ref, None)
                continue
            try:
                reply = await asyncio.wait_for(future, 10)
            except (TimeoutError, ConnectionError):
                self.pending.pop(ref, None)
                continue
            if reply["type"] == "ok":
                self.submitted.add(round_id)
                self.stats.submitted += 1
                return
            log(f"{self.name}: submit of round {round_id} refused: {reply.get('code')}")
            if reply.get("code") != "server_error":
                self.stats.errors[f"submit:{reply.get('code')}"] += 1
                return
            # A failed submit is resent with its ref, as the page does; it counts against
            # the run only if it is never acknowledged (a lost submission).
            self.stats.resent[f"submit:{reply.get('code')}"] += 1
            await asyncio.sleep(1)
        if not self.dropped and not self.stopping and round_id not in self.submitted:
            self.stats.lost_submissions += 1
            log(f"{self.name}: submission for round {round_id} never acknowledged")


# --- The monitor: what is overdue, polled once a second ----------------------------------


@dataclass
class Episode:
    """A table overdue: its phase deadline or countdown passed with nothing done."""

    table_id: int
    key: tuple[Any, ...]
    due: float
    overdue: float
    seen_at: float


class Monitor(threading.Thread):
    def __init__(self, url: str) -> None:
        super().__init__(daemon=True, name="chaos-monitor")
        self.url = url
        self.stop_event = threading.Event()
        self.episodes: list[Episode] = []
        self.open: dict[int, Episode] = {}
        self.live: list[tuple[int, int, str, int]] = []  # round id, table, state, phase
        self.countdowns: list[tuple[int, str]] = []  # table, start_at (isoformat, UTC)
        self.recent_settled: list[tuple[int, int]] = []  # round id, settling phase
        self.lock = threading.Lock()
        self.polls = 0
        self.failures = 0

    def run(self) -> None:
        conn: psycopg.Connection[Any] | None = None
        while not self.stop_event.is_set():
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(
                        self.url, autocommit=True, application_name="chaos-monitor"
                    )
                    conn.execute("SET TIME ZONE 'UTC'")
                self._poll(conn)
                self.polls += 1
            except psycopg.Error:
                self.failures += 1
                if conn is not None:
                    with contextlib.suppress(Exception):
                        conn.close()
                conn = None
            self.stop_event.wait(1.0)
        if conn is not None:
            conn.close()

    def _poll(self, conn: psycopg.Connection[Any]) -> None:
        now = float(conn.execute("SELECT extract(epoch FROM clock_timestamp())").fetchone()[0])  # type: ignore[index]
        rounds = conn.execute(
            "SELECT id, table_id, state, phase, extract(epoch FROM deadline) FROM games_round "
            "WHERE state IN ('arranging', 'showdown')"
        ).fetchall()
        tables = conn.execute(
            "SELECT id, start_at FROM games_table WHERE start_at IS NOT NULL"
        ).fetchall()
        settled = conn.execute(
            "SELECT id, phase - 1 FROM games_round WHERE state = 'settled' "
            "ORDER BY settled_at DESC LIMIT 20"
        ).fetchall()
        targets: dict[int, tuple[tuple[Any, ...], float]] = {}
        playing = set()
        for round_id, table_id, state, phase, deadline in rounds:
            playing.add(table_id)
            if deadline is not None and float(deadline) < now:
                targets[table_id] = (("round", round_id, state, phase), float(deadline))
        for table_id, start_at in tables:
            if table_id not in playing and start_at.timestamp() < now:
                targets[table_id] = (("start", start_at.timestamp()), start_at.timestamp())
        with self.lock:
            self.live = [(r[0], r[1], r[2], r[3]) for r in rounds]
            self.countdowns = [(t, s.astimezone(UTC).isoformat()) for t, s in tables]
            self.recent_settled = [(r[0], r[1]) for r in settled]
            for table_id, (key, due) in targets.items():
                episode = self.open.get(table_id)
                if episode is not None and episode.key == key:
                    episode.overdue, episode.seen_at = now - due, now
                    continue
                if episode is not None:
                    self._close(table_id)
                self.open[table_id] = Episode(table_id, key, due, now - due, now)
            for table_id in [t for t in self.open if t not in targets]:
                self._close(table_id)

    def _close(self, table_id: int) -> None:
        episode = self.open.pop(table_id)
        if episode.overdue >= 1.0:
            self.episodes.append(episode)

    def finish(self) -> list[Episode]:
        self.stop_event.set()
        self.join(timeout=10)
        with self.lock:
            for table_id in list(self.open):
                self._close(table_id)
            return list(self.episodes)


# --- Faults -------------------------------------------------------------------------------


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

    async def timer_duplicate(self) -> str:
        with self.monitor.lock:
            live, countdowns = list(self.monitor.live), list(self.monitor.countdowns)
        tasks: list[tuple[str, list[Any]]] = []
        for round_id, _table, state, phase in live:
            tasks += [("games.advance_round", [round_id, state, phase])] * 2
        for table_id, start_at in countdowns:
            tasks += [("games.start_round_when_due", [table_id, start_at])] * 2
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
        sent = await asyncio.to_thread(self._send_all, tasks)
        return f"{sent} of {len(tasks)} stale timer tasks sent"


# --- Analysis ------------------------------------------------------------------------------


@dataclass
class RoundRow:
    id: int
    table_id: int
    state: str
    dealt: float
    ended: float | None  # settled, or voided
    outcome: str  # settled / voided / live


def load_rounds(db: psycopg.Connection[Any]) -> list[RoundRow]:
    rows = db.execute(
        """
        SELECT r.id, r.table_id, r.state, extract(epoch FROM r.dealt_at),
               extract(epoch FROM coalesce(r.settled_at, c.created_at)), c.outcome
        FROM games_round r LEFT JOIN ledger_roundclosure c ON c.round_id = r.id
        """
    ).fetchall()
    result = []
    for rid, table_id, state, dealt, ended, outcome in rows:
        if state in LIVE:
            kind = "live"
        elif state == "settled":
            kind = "settled"
        else:
            kind = "voided"  # cancelled, voided: any end other than a settlement
        if outcome == "voided":
            kind = "voided"
        result.append(
            RoundRow(
                rid, table_id, state, float(dealt), None if ended is None else float(ended), kind
            )
        )
    return result


@dataclass
class Figure:
    """A recovery time, or at least ``value`` when the next fault came first."""

    value: float
    cut: bool
    culprit: str

    @classmethod
    def of(cls, seconds: float | None, horizon: float, culprit: str) -> Figure:
        if seconds is None:
            return cls(0.0, False, "")
        if seconds > horizon:
            return cls(horizon, True, culprit)
        return cls(seconds, False, culprit)

    def text(self) -> str:
        return f"{'>' if self.cut else ''}{self.value:.1f} s"

    def late(self, limit: float) -> bool:
        return self.value > limit


@dataclass
class Measure:
    fault: Fault
    live: Figure
    tables: Figure
    quiet: float
    overdue: float
    overdue_table: int
    untouched: list[tuple[float, int]]


def longest_gap(times: list[float], start: float, end: float) -> float:
    points = [start, *sorted(t for t in times if start < t < end), end]
    return max(b - a for a, b in itertools.pairwise(points))


def analyse(
    db: psycopg.Connection[Any],
    options: argparse.Namespace,
    faults: list[Fault],
    episodes: list[Episode],
    players: list[ScriptedPlayer],
    run_start: float,
    run_end: float,
) -> tuple[list[str], list[str]]:
    """The report lines and the broken invariants."""
    lines: list[str] = []
    broken: list[str] = []
    rounds = load_rounds(db)
    by_table: dict[int, list[RoundRow]] = defaultdict(list)
    for r in rounds:
        by_table[r.table_id].append(r)
    settlements = sorted(r.ended for r in rounds if r.outcome == "settled" and r.ended)

    # Rounds waiting for an absent player's deadline: slow by design, left out of recovery.
    absent_ids = {p.user_id: p for p in players}
    unsubmitted = db.execute(
        "SELECT round_id, user_id FROM games_roundplayer "
        "WHERE submitted_at IS NULL AND user_id = ANY(%s)",
        (list(absent_ids),),
    ).fetchall()
    round_by_id = {r.id: r for r in rounds}
    waiting_for_absent: set[int] = set()
    for round_id, user_id in unsubmitted:
        found = round_by_id.get(round_id)
        player = absent_ids[user_id]
        if found is None:
            continue
        end = found.ended or run_end
        for start, stop in player.absences:
            if start is not None and start < end and (stop is None or stop > found.dealt):
                waiting_for_absent.add(round_id)

    # Usual gap between a table's settlements (the "new round" yardstick).
    gaps = []
    for table_rounds in by_table.values():
        times = sorted(r.ended for r in table_rounds if r.outcome == "settled" and r.ended)
        gaps += [b - a for a, b in itertools.pairwise(times)]
    cycle = statistics.median(gaps) if gaps else 0.0

    # Per fault.
    lines.append("")
    lines.append(
        f"{'fault kind':<16}{'count':>6}{'live rounds end':>17}{'tables settle':>15}"
        f"{'no settlement':>15}{'max overdue':>13}{'stalled untouched':>19}"
    )
    per_kind: dict[str, list[Measure]] = defaultdict(list)
    limit = options.recover_within
    for index, fault in enumerate(faults):
        t = fault.started
        # A later fault cuts this one's measures: what is still pending then is reported as
        # "at least" that long and counts against this fault only if that is already late.
        horizon = (faults[index + 1].started if index + 1 < len(faults) else run_end) - t
        live = [
            r
            for r in rounds
            if r.dealt <= t and (r.ended is None or r.ended > t) and r.id not in waiting_for_absent
        ]
        slowest = max(live, key=lambda r: r.ended or float("inf"), default=None)
        live_m = Figure.of(
            None if slowest is None else (slowest.ended or run_end + 1) - t,
            horizon,
            f"round {slowest.id} at table {slowest.table_id}" if slowest else "",
        )
        # Tables that were playing (a round live at t or ended in the minute before):
        # until each settles a round after t.
        waits: list[tuple[float, int]] = []
        for table_id, table_rounds in by_table.items():
            if not any(
                r.dealt <= t and (r.ended is None or r.ended > t - 60) for r in table_rounds
            ):
                continue
            after = sorted(
                (r for r in table_rounds if r.ended and r.ended > t), key=lambda r: r.ended or 0
            )
            if after and after[0].id in waiting_for_absent:
                continue
            if not after and any(r.id in waiting_for_absent for r in table_rounds):
                continue
            waits.append(((after[0].ended or 0) - t if after else run_end + 1 - t, table_id))
        wait, table = max(waits, default=(0.0, 0))
        tables_m = Figure.of(wait if waits else None, horizon, f"table {table}")
        quiet = longest_gap(settlements, t, t + min(horizon, max(live_m.value, 5.0)))
        # Tables overdue after this fault (from 2 s before it until the next one), each
        # overdue counted only until the next fault.
        mine = [
            (min(e.overdue, t + horizon - e.due), e.table_id)
            for e in episodes
            if t - 2 <= e.due < t + horizon
        ]
        overdue, overdue_table = max(mine, default=(0.0, 0))
        over = sorted((o for o in mine if o[0] > options.stall_limit), reverse=True)
        if fault.kind in GLOBAL_KINDS:
            untouched: list[tuple[float, int]] = []
        elif fault.kind == "worker_stop":
            untouched = over[options.concurrency :]  # a pool process holds one table's lock
        else:
            untouched = over
        per_kind[fault.kind].append(
            Measure(fault, live_m, tables_m, quiet, overdue, overdue_table, untouched)
        )

    for kind in KINDS:
        items = per_kind.get(kind, [])
        if not items:
            lines.append(f"{kind:<16}{0:>6}")
            broken.append(f"fault kind {kind} never injected")
            continue
        live_w = max((i.live for i in items), key=lambda f: f.value)
        tables_w = max((i.tables for i in items), key=lambda f: f.value)
        quiet_w = max(i.quiet for i in items)
        overdue_w = max(items, key=lambda i: i.overdue)
        untouched = [u for i in items for u in i.untouched]
        lines.append(
            f"{kind:<16}{len(items):>6}{live_w.text():>17}{tables_w.text():>15}"
            f"{quiet_w:>13.1f} s{overdue_w.overdue:>11.1f} s{len(untouched):>9} "
            f"(max {max(untouched, default=(0.0, 0))[0]:.1f} s)"
        )
        if live_w.late(limit):
            broken.append(
                f"{kind}: rounds live at the fault ended after {live_w.text()} "
                f"(> {limit:.0f} s; {live_w.culprit})"
            )
        if tables_w.late(limit + cycle):
            broken.append(
                f"{kind}: a table settled nothing new for {tables_w.text()} "
                f"(> {limit:.0f} s + usual gap {cycle:.1f} s; {tables_w.culprit})"
            )
        if overdue_w.overdue > limit:
            broken.append(
                f"{kind}: table {overdue_w.overdue_table} overdue {overdue_w.overdue:.1f} s "
                f"(> {limit:.0f} s)"
            )
        if untouched:
            broken.append(
                f"{kind}: {len(untouched)} untouched table(s) stalled over "
                f"{options.stall_limit:.0f} s (max {max(untouched)[0]:.1f} s, "
                f"table {max(untouched)[1]})"
            )
        not_injected = [i.fault.detail for i in items if not i.fault.injected]
        if not_injected:
            broken.append(f"{kind}: {len(not_injected)} not injected ({not_injected[0]})")
    orphan_stalls = [
        e
        for e in episodes
        if e.overdue > options.stall_limit
        and not any(f.started - 2 <= e.due < f.started + 60 for f in faults)
    ]
    if orphan_stalls:
        broken.append(
            f"{len(orphan_stalls)} table(s) stalled over {options.stall_limit:.0f} s with no "
            f"fault (max {max(e.overdue for e in orphan_stalls):.1f} s)"
        )
    lines.append(
        f"(a table's usual gap between settlements: {cycle:.1f} s; overdue: a phase deadline "
        f"or a countdown passed with nothing done, polled once a second)"
    )

    # Overall.
    measured = [r for r in rounds if r.dealt >= run_start]
    settled = sum(r.outcome == "settled" for r in rounds)
    voided = sum(r.outcome == "voided" for r in rounds)
    states = Counter(r.state for r in rounds if r.outcome == "voided")
    stuck_rounds = db.execute(
        "SELECT count(*) FROM games_round WHERE state IN ('arranging', 'showdown') "
        "AND (deadline IS NULL OR deadline < clock_timestamp() - make_interval(secs => %s))",
        (options.recover_within,),
    ).fetchone()[0]  # type: ignore[index]
    stuck_tables = db.execute(
        "SELECT count(*) FROM games_table t WHERE start_at < clock_timestamp() - "
        "make_interval(secs => %s) AND NOT EXISTS (SELECT 1 FROM games_round r WHERE "
        "r.table_id = t.id AND r.state IN ('arranging', 'showdown'))",
        (options.recover_within,),
    ).fetchone()[0]  # type: ignore[index]
    twice_events = db.execute(
        "SELECT count(*) FROM (SELECT round_id FROM games_roundevent WHERE kind = 'settled' "
        "GROUP BY round_id HAVING count(*) > 1) x"
    ).fetchone()[0]  # type: ignore[index]
    twice_ledger = db.execute(
        "SELECT count(DISTINCT round_id) FROM (SELECT round_id, credit_id FROM ledger_transfer "
        "WHERE kind IN ('settle', 'release') GROUP BY round_id, credit_id HAVING count(*) > 1) x"
    ).fetchone()[0]  # type: ignore[index]
    orphans = db.execute(
        "SELECT count(*), coalesce(sum(a.balance), 0) FROM ledger_account a "
        "LEFT JOIN games_round r ON r.id = a.round_id WHERE a.kind = 'escrow' "
        "AND a.balance <> 0 AND (r.id IS NULL OR r.state NOT IN ('arranging', 'showdown'))"
    ).fetchone()
    closures_voided = db.execute(
        "SELECT count(*) FROM ledger_roundclosure WHERE outcome = 'voided'"
    ).fetchone()[0]  # type: ignore[index]

    # Absent players dealt in.
    limit = AWAY_SECONDS + SWEEP_SECONDS + 1.0
    dealt_absent = 0
    lost = 0
    lines_absent = []
    rp = db.execute(
        "SELECT p.round_id, p.user_id, coalesce(p.xu, 0), extract(epoch FROM r.dealt_at) "
        "FROM games_roundplayer p JOIN games_round r ON r.id = p.round_id "
        "WHERE p.user_id = ANY(%s)",
        (list(absent_ids),),
    ).fetchall()
    for round_id, user_id, xu, dealt in rp:
        player = absent_ids[user_id]
        for start, stop in player.absences:
            if (
                start is not None
                and float(dealt) > start + limit
                and (stop is None or stop > float(dealt))
            ):
                dealt_absent += 1
                lost += max(0, -int(xu))
                lines_absent.append(
                    f"  {player.name}: round {round_id} dealt {float(dealt) - start:.0f} s "
                    f"after they left, xu {int(xu):+d}"
                )
                break
    dropped = [p for p in players if p.dropped]
    still_seated = db.execute(
        "SELECT count(*) FROM games_seat WHERE user_id = ANY(%s)", ([p.user_id for p in dropped],)
    ).fetchone()[0]  # type: ignore[index]

    lines.append("")
    lines.append(
        f"rounds dealt during the run {len(measured)}; settled {settled}, voided {voided}"
        f"{' ' + str(dict(states)) if states else ''} (ledger closures voided: {closures_voided}),"
        f" live at the end {sum(r.outcome == 'live' for r in rounds)}"
    )
    lines.append(
        f"stuck (a phase or countdown overdue > {options.recover_within:.0f} s at the end): "
        f"{stuck_rounds} rounds, {stuck_tables} countdowns"
    )
    lines.append(
        f"settled twice: {twice_events} (round log), {twice_ledger} (ledger), "
        f"{players[0].stats.settled_seen_twice} (clients)"
    )
    lines.append(f"holds without a live round: {orphans[0]} escrows, {orphans[1]} xu")  # type: ignore[index]
    lines.append(
        f"absent players (no connection > {AWAY_SECONDS:.0f} s + one sweep) dealt in: "
        f"{dealt_absent} rounds, xu lost {lost}; dropped players still seated at the end: "
        f"{still_seated} of {len(dropped)}"
    )
    lines += lines_absent[:10]
    longest = longest_gap(settlements, run_start + options.warmup, run_end - 1)
    lines.append(
        f"longest stretch with no settlement anywhere (after the warm-up): {longest:.1f} s"
    )
    if stuck_rounds or stuck_tables:
        broken.append(f"stuck: {stuck_rounds} rounds, {stuck_tables} countdowns")
    if twice_events or twice_ledger or players[0].stats.settled_seen_twice:
        broken.append(f"settled twice: {twice_events} (log) / {twice_ledger} (ledger)")
    if orphans[0]:  # type: ignore[index]
        broken.append(f"{orphans[0]} holds without a live round ({orphans[1]} xu)")  # type: ignore[index]
    if dealt_absent or lost:
        broken.append(f"absent players dealt in {dealt_absent} rounds and lost {lost} xu")
    if settled == 0 or not measured:
        broken.append("no round was settled")
    for seating_table in {p.table_id for p in players}:
        if not any(
            r.outcome == "settled" and r.dealt >= run_start for r in by_table[seating_table]
        ):
            broken.append(f"scripted table {seating_table} settled no round")
    return lines, broken


def ledger_check(env: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run(
        [PYTHON, "manage.py", "ledger_check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    out = (done.stdout.strip() or done.stderr.strip()).splitlines()
    return done.returncode, " / ".join(out[-3:])


# --- The run -------------------------------------------------------------------------------


async def play(
    options: argparse.Namespace,
    stack: Stack,
    seatings: list[Seating],
    monitor: Monitor,
    database_url: str,
    faults: list[Fault],
    rng: random.Random,
) -> tuple[list[ScriptedPlayer], Injector, float, float]:
    stats = LoadStats()
    players: list[ScriptedPlayer] = []
    for t, seating in enumerate(seatings):
        for k, (user_id, name, key) in enumerate(seating.players):
            home = 0 if (t == 0 and k == 3) else (t + k) % len(stack.bases)
            players.append(
                ScriptedPlayer(
                    user_id, name, key, seating.table_id, stack.bases, home,
                    random.Random(rng.random()), stats,
                )
            )  # fmt: skip
    dropper = players[3] if len(players) >= 4 else None  # seat 4 of the first table, on daphne0
    injector = Injector(stack, monitor, database_url, rng, options)
    supervisor = asyncio.create_task(stack.supervise())
    start = time.time()
    stop_at = start + options.minutes * 60
    tasks = [asyncio.create_task(p.run(stop_at)) for p in players]
    log(
        f"playing {options.tables} bot tables and {len(seatings)} tables of scripted players "
        f"for {options.minutes:g} min; {len(faults)} faults"
    )
    drop_at = faults[0].at + 8 if faults else None
    pending = sorted(faults, key=lambda f: f.at)
    fault_tasks = []
    dropped = False
    while time.time() < stop_at:
        elapsed = time.time() - start
        while pending and pending[0].at <= elapsed:
            fault = pending.pop(0)
            first = 0 if fault is faults[0] else None
            fault_tasks.append(asyncio.create_task(injector.inject(fault, first)))
        if dropper and drop_at is not None and not dropped and elapsed >= drop_at:
            dropper.drop()
            dropped = True
            log(f"{dropper.name} dropped (connection aborted) and never returns")
        await asyncio.sleep(0.2)
    await asyncio.gather(*fault_tasks)
    end = time.time()
    for p in players:
        await p.close()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for player, result in zip(players, results, strict=True):
        if isinstance(result, BaseException):
            stats.stopped_players.append(f"{player.name}: {result!r}")
    stack.supervising = False
    await supervisor
    return players, injector, start, end


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=int, default=20, help="bot-only tables")
    parser.add_argument("--player-tables", type=int, default=3, help="tables of 4 scripted players")
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
    options = parser.parse_args()
    if options.player_tables < 1:
        parser.error("--player-tables must be at least 1 (one of its players drops)")

    rng = random.Random(options.seed)
    faults = make_schedule(rng, options)
    logs = Path(options.logs or ROOT / "test-artifacts" / f"chaos-{options.seed}-{os.getpid()}")
    logs.mkdir(parents=True, exist_ok=True)
    name = f"maubinh_chaos_{os.getpid()}"
    scratchdb.recreate(options.database_url, name)
    database_url = scratchdb.database_url(options.database_url, name)
    stack = Stack(options, database_url, logs)
    log(
        f"seed {options.seed}; database {name}; redis :{stack.redis_port}; logs {logs}; "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    log("schedule: " + ", ".join(f"{f.at:.0f}s {f.kind}" for f in faults))
    monitor = Monitor(database_url)
    code = 1
    try:
        stack.start()
        _bot_tables, seatings = prepare(stack.env, options)
        monitor.start()
        players, injector, start, end = asyncio.run(
            play(options, stack, seatings, monitor, database_url, faults, rng)
        )
        load_end = os.getloadavg()
        episodes = monitor.finish()
        with psycopg.connect(database_url, autocommit=True, application_name="chaos-harness") as db:
            lines, broken = analyse(db, options, faults, episodes, players, start, end)
        stack.stop()
        check_code, check_out = ledger_check(stack.env)
        stats = players[0].stats
        deaths = [
            (s.name, when - start, rc)
            for s in stack.services
            for when, rc, planned in s.deaths
            if not planned
        ]
        print()
        print(
            f"chaos: seed {options.seed}, {options.minutes:g} min, {options.tables} bot tables, "
            f"{len(seatings)} tables of scripted players, load average at the end "
            f"{load_end[0]:.1f} / {load_end[1]:.1f} / {load_end[2]:.1f}"
        )
        for fault in faults:
            print(f"  {fault.started - start:6.1f} s  {fault.kind:<16} {fault.detail}")
        for line in lines:
            print(line)
        print(f"timer deliveries injected (duplicate and stale): {injector.timer_deliveries}")
        print(
            f"load: {stats.submitted} submissions acknowledged, {stats.reconnects} reconnects "
            f"({stats.connect_attempts_failed} refused attempts), failed connections "
            f"{stats.failed_connections}, stopped players {len(stats.stopped_players)}, "
            f"errors {dict(stats.errors) or 0}, failed submits resent {dict(stats.resent) or 0}, "
            f"submissions never acknowledged "
            f"{stats.lost_submissions}, present players stood up {dict(stats.stood_up) or 0}, "
            f"version gaps {stats.gaps}"
        )
        print(
            "processes that died without a fault: "
            + (", ".join(f"{n} at {t:.0f} s (exit {rc})" for n, t, rc in deaths) or "none")
        )
        print(f"ledger_check: exit {check_code}: {check_out}")
        print(
            f"harness CPU: {time.process_time():.0f} s over {end - start:.0f} s of play "
            f"(players, monitor, faults)"
        )
        if stats.failed_connections:
            broken.append(f"{stats.failed_connections} failed connections (none for 30 s)")
        if stats.stopped_players:
            broken.append(f"players stopped: {stats.stopped_players[:3]}")
        if stats.errors:
            broken.append(f"error replies: {dict(stats.errors)}")
        if stats.lost_submissions:
            broken.append(f"{stats.lost_submissions} submissions never acknowledged")
        if stats.stood_up:
            broken.append(f"present players stood up: {dict(stats.stood_up)}")
        if deaths:
            broken.append(f"{len(deaths)} processes died without a fault: {deaths[:4]}")
        if check_code != 0:
            broken.append(f"ledger_check failed: {check_out}")
        print()
        if broken:
            print(f"INVARIANTS BROKEN ({len(broken)}):")
            for item in broken:
                print(f"  - {item}")
        else:
            print("every invariant held")
        print(f"logs: {logs}")
        code = 1 if broken else 0
    finally:
        monitor.stop_event.set()
        stack.stop()
        from django.db import connections

        with contextlib.suppress(Exception):
            connections.close_all()
        if not options.keep:
            scratchdb.recreate(options.database_url, name, drop_only=True)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
