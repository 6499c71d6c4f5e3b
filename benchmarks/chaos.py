"""Chaos: the multi-process stack under a seeded schedule of faults, with its invariants checked.

    .venv/bin/python benchmarks/chaos.py [--minutes 30] [--seed 1] [--tables 20]
        [--player-tables 3] [--faults-per-minute 1] [--arena-minutes N] [--sng-stack 100]
        [--no-tournaments] [--keep] [--database-url URL]

Starts, on a scratch PostgreSQL database and a private Redis (a ``redis-server`` child on a
free port, so it can be killed and restarted empty): 2 daphne, 2 prefork Celery workers and
a Celery beat, each restarted one second after it dies, as systemd's ``Restart=always``
would. Plays ``--tables`` bot-only tables and ``--player-tables`` tables of 4 scripted
websocket players (auto-arrange, 0.5-3 s of thinking, a ping every 15 s, reconnecting
through the other daphne as a proxy would, resending an unanswered submission with the same
``ref``). One scripted player drops and never returns: its connection is aborted (no close
frame) a few seconds after the first fault, a daphne kill of its own daphne.

Two tournaments play through the same faults: a sit-and-go of 4 (one scripted entrant and
three house bots, a short stack and a level a round) and an arena of ``--arena-minutes``
with 4 scripted entrants (the arena socket open, following their seat from board to board),
one of whom drops at its first board, without arranging it, and never returns. Per
tournament it checks, and exits 1 when one breaks: chips conserved at every observation,
the pool (prizes each paid exactly once, netting to zero once finished; and for every
tournament of the run that is over, finished, cancelled or voided, no xu left in its pool
or in a decided prize hold: ``ended_pools_holding_xu``), nothing stuck (no
deal or settlement at its tables for longer than the recovery bound plus one round waiting
for an absent hand; an arena that far past its end not finished), nobody at two tables or
in two live rounds at once, and the absent entrant's hands played for them (RULES.md
section 8), never eliminated, never paired again once away.

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
from tests.support.processes import PYTHON, collect_static, free_port, site_env  # noqa: E402

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
            # The run's arena is shorter than the page offers (tournaments.arena).
            ARENA_MIN_MINUTES=str(min(3, options.arena_minutes)),
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


def prepare(
    env: dict[str, str], options: argparse.Namespace
) -> tuple[list[int], list[Seating], Entered | None]:
    """In this process: migrate, open the bot-only tables, create the scripted players,
    start the tournaments."""
    os.environ.update(env)
    os.environ["PGAPPNAME"] = "chaos-harness"
    import django

    django.setup()
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
        seatings.append(Seating(table.pk, [_signed_in(user) for user in users]))
    entered = enter_tournaments(options) if options.tournaments else None
    from django.db import connections

    connections.close_all()
    return bot_tables, seatings, entered


def _signed_in(user: Any) -> tuple[int, str, str]:
    """(user id, username, session key): a browser's session cookie for ``user``."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return user.pk, user.username, session.session_key or ""


@dataclass
class Entered:
    """The run's tournaments and their scripted entrants (the rest are house bots)."""

    sit_and_go: int
    sng_player: tuple[int, str, str]
    sng_table: int
    arena: int
    arena_players: list[tuple[int, str, str]]


def enter_tournaments(options: argparse.Namespace) -> Entered:
    """A sit-and-go of 4 (one scripted entrant, three house bots; a short stack, a first
    stake of a quarter of it and a level a round, so it can finish within the run) and an
    arena of ``--arena-minutes`` with 4 scripted entrants, one of whom drops at its first
    board and never returns. Both start here, through their services, as their creators'
    buttons would start them."""
    from django.test import override_settings

    from accounts.models import User
    from ledger.services import grant_signup_bonus
    from tournaments.arena import services as arena
    from tournaments.models import Entry
    from tournaments.sitandgo import services as tournaments

    sng_user = User.objects.create_user(username="chaos-sng")
    grant_signup_bonus(sng_user)
    with override_settings(
        TOURNAMENT_STARTING_STACK=options.sng_stack,
        TOURNAMENT_FIRST_STAKE=max(1, options.sng_stack // 4),
        TOURNAMENT_LEVEL_ROUNDS=1,
        TOURNAMENT_ARRANGE_SECONDS=30,
    ):
        sng = tournaments.create_sit_and_go(
            sng_user, name="Chaos sit-and-go", players=4, buy_in=100, allow_bots=True
        )
    tournaments.start_now_with_bots(sng_user, sng.pk)
    sng_table = Entry.objects.get(tournament=sng, user=sng_user).table_id
    assert sng_table is not None
    arena_users = [User.objects.create_user(username=f"chaos-arena{k}") for k in range(4)]
    for user in arena_users:
        grant_signup_bonus(user)
    with override_settings(TOURNAMENT_ARRANGE_SECONDS=30):
        created = arena.create_arena(
            arena_users[0],
            name="Chaos arena",
            minutes=options.arena_minutes,
            buy_in=100,
            players=8,
        )
    for user in arena_users[1:]:
        arena.join(user, created.pk)
    arena.start_now(arena_users[0], created.pk)
    return Entered(
        sng.pk,
        _signed_in(sng_user),
        sng_table,
        created.pk,
        [_signed_in(user) for user in arena_users],
    )


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


class Reconnecting:
    """One page's websocket: opened through a daphne, through the other one after a failure
    (as a proxy would), with backoff; no connection for 30 s counts as a failed one."""

    def __init__(self, owner: ScriptedPlayer) -> None:
        self.owner = owner
        self.attempt = 0
        self.down_since: float | None = None
        self.failed_reported = False

    async def open(self, path: str) -> Any:
        """The open socket, or None after a failed attempt (and its backoff)."""
        p = self.owner
        base = p.bases[(p.home + self.attempt) % len(p.bases)]
        try:
            ws = await websockets.connect(
                base.replace("http://", "ws://") + path,
                additional_headers={"Cookie": p.cookie},
                origin=base,  # type: ignore[arg-type]
                open_timeout=10,
                max_size=2**22,
            )
        except (OSError, TimeoutError, websockets.WebSocketException):
            p.stats.connect_attempts_failed += 1
            now = time.time()
            self.down_since = self.down_since or now
            if now - self.down_since > 30 and not self.failed_reported:
                p.stats.failed_connections += 1
                self.failed_reported = True
                log(f"{p.name}: no connection for 30 s ({path})")
            self.attempt += 1
            await asyncio.sleep(
                min(4.0, 0.25 * 2 ** min(self.attempt, 4)) * p.rng.uniform(0.75, 1.25)
            )
            return None
        self.down_since, self.failed_reported = None, False
        return ws

    @staticmethod
    async def serve(ws: Any, handle: Any, beside: Any) -> None:
        """Read ``ws`` until it closes, ``beside`` (the page's pings or polls) running along."""
        task = asyncio.create_task(beside)
        try:
            async for raw in ws:
                handle(json.loads(raw))
        except websockets.ConnectionClosed:
            pass
        finally:
            task.cancel()

    def closed(self) -> None:
        self.attempt += 1  # try the other daphne first, as a proxy would


class ScriptedPlayer:
    """A browser tab at a table: sits, arranges, submits, pings, reconnects."""

    sits = True  # sits down when the snapshot says it is not seated
    expected_leaves: frozenset[str] = frozenset()  # seat_left reasons that are no fault

    def __init__(
        self,
        user_id: int,
        name: str,
        session_key: str,
        table_id: int | None,
        bases: list[str],
        home: int,
        rng: random.Random,
        stats: LoadStats,
    ) -> None:
        self.user_id, self.name = user_id, name
        self.table_id: int | None = table_id
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
        self.switching = False  # closing the table socket to open another table's
        self.background: set[asyncio.Future[Any]] = set()

    # The connection ---------------------------------------------------------------------

    async def run(self, stop_at: float) -> None:
        socket = Reconnecting(self)
        while not self.stopping and not self.dropped and time.time() < stop_at:
            if self.table_id is None:  # an arena entrant between boards
                await asyncio.sleep(0.2)
                continue
            ws = await socket.open(f"/ws/tables/{self.table_id}/")
            if ws is None:
                continue
            if self.absences and self.absences[-1][1] is None:
                self.absences[-1][1] = time.time()
                self.stats.reconnects += 1
            self.ws = ws
            try:
                await socket.serve(ws, self._handle, self._ping())
            finally:
                self.ws = None
                for future in self.pending.values():
                    if not future.done():
                        future.set_exception(ConnectionError("closed"))
                self.pending.clear()
            if self.switching:  # the page went to another table: no absence
                self.switching = False
                continue
            if not self.stopping:
                self.absences.append([time.time(), None])
                socket.closed()
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
            if message.get("reason") in self.expected_leaves:
                self._left(str(message.get("reason")))
                return
            if not self.dropped:
                self.stats.stood_up[message.get("reason", "?")] += 1
                log(f"{self.name} stood up while present: {message.get('reason')}")
            self._later(self._send({"type": "snapshot", "ref": f"{self.name}:snapshot"}))

    def _left(self, reason: str) -> None:
        """Stood up for an expected reason (a tournament's: busted, moved, board over)."""

    def _on_snapshot(self, snapshot: dict[str, Any]) -> None:
        if not snapshot["you"]["seated"] and not self.dropped and self.sits:
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


class TournamentPlayer(ScriptedPlayer):
    """An entrant's table page at the seat its tournament gives it: it never sits or leaves
    by itself (the tournament seats, moves and stands it up). An arena entrant also keeps
    the arena socket open (its presence), which says which table it is at: the page goes
    to each new table. A sit-and-go entrant stops once out (busted, or the winner)."""

    sits = False
    expected_leaves = frozenset({"busted", "won", "moved", "board_over"})

    def __init__(self, *args: Any, tournament_id: int, arena: bool) -> None:
        super().__init__(*args)
        self.tournament_id, self.arena = tournament_id, arena
        self.drop_on_deal = False  # drop at the first deal instead of arranging it
        self.dropped_at: float | None = None
        self.arena_ws: Any = None
        self.arena_version = 0
        self.tables: list[tuple[int, float]] = []  # (table, when the arena seated it there)

    async def run(self, stop_at: float) -> None:
        if not self.arena:
            await super().run(stop_at)
            return
        arena = asyncio.create_task(self._arena_socket(stop_at))
        try:
            await super().run(stop_at)
        finally:
            await arena

    async def _arena_socket(self, stop_at: float) -> None:
        """The arena page's socket: presence, the standings (where am I seated?)."""
        socket = Reconnecting(self)
        while not self.stopping and not self.dropped and time.time() < stop_at:
            ws = await socket.open(f"/ws/tournaments/{self.tournament_id}/arena/")
            if ws is None:
                continue
            self.arena_ws = ws
            try:
                await socket.serve(ws, self._on_arena, self._arena_poll(ws))
            finally:
                self.arena_ws = None
            if not self.stopping:
                socket.closed()
                await asyncio.sleep(0.2)

    async def _arena_poll(self, ws: Any) -> None:
        """Ask for the state every 5 s: an event lost with a broker restart is not a gap the
        page could see (each event is the whole state), so it asks again."""
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await asyncio.sleep(5)
                await ws.send(json.dumps({"type": "snapshot", "ref": f"{self.name}:arena"}))

    def _on_arena(self, message: dict[str, Any]) -> None:
        if message.get("type") == "error":
            self.stats.errors[f"arena:{message.get('code', '?')}"] += 1
            return
        if message.get("type") != "tournament" or message.get("version", 0) < self.arena_version:
            return
        self.arena_version = message["version"]
        if message.get("state") in ("finished", "cancelled"):
            self._later(self.close())
            return
        mine = next((r for r in message.get("standings", []) if r["user"] == self.user_id), None)
        table = mine and mine.get("table")
        if table and table != self.table_id and not self.dropped:
            self.tables.append((table, time.time()))
            self.table_id = table
            if self.ws is not None:
                self.switching = True
                self._later(self.ws.close())

    def _left(self, reason: str) -> None:
        if reason in ("busted", "won"):
            self._later(self.close())  # out of the sit-and-go (its page would show the place)

    def _want_submission(self, round_id: int, cards: list[str]) -> None:
        if self.drop_on_deal:  # holds the cards without arranging them, then drops
            if not self.dropped and round_id not in self.submitting:
                self.submitting[round_id] = asyncio.ensure_future(self._drop_soon(round_id))
            return
        super()._want_submission(round_id, cards)

    async def _drop_soon(self, round_id: int) -> None:
        await asyncio.sleep(1.5)
        self.drop()
        log(f"{self.name} dropped at round {round_id} of its board and never returns")

    def drop(self) -> None:
        super().drop()
        self.dropped_at = time.time()
        if self.arena_ws is not None:
            self.arena_ws.transport.abort()

    async def close(self) -> None:
        await super().close()
        if self.arena_ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.arena_ws.close(), 5)


# --- The monitor: what is overdue, polled once a second ----------------------------------


@dataclass
class Episode:
    """A table overdue: its phase deadline or countdown passed with nothing done."""

    table_id: int
    key: tuple[Any, ...]
    due: float
    overdue: float
    seen_at: float


@dataclass
class TournamentWatch:
    """What the monitor saw of one tournament, once a second."""

    observations: int = 0
    state: str = ""
    chip_breaks: list[tuple[float, int]] = field(default_factory=list)  # (when, sum of stacks)
    seated_twice: list[tuple[float, int]] = field(default_factory=list)  # (when, user)


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
        self.tournaments: dict[int, TournamentWatch] = {}  # set before it starts

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
        if self.tournaments:
            self._watch_tournaments(conn, now)
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

    def _watch_tournaments(self, conn: psycopg.Connection[Any], now: float) -> None:
        """Each tournament's chips (one statement: one snapshot), and its entrants seated at
        two tables or dealt into two live rounds at once."""
        ids = list(self.tournaments)
        chips = conn.execute(
            "SELECT t.id, t.state, t.players * t.starting_stack, coalesce(sum(e.stack), 0) "
            "FROM tournaments_tournament t LEFT JOIN tournaments_entry e "
            "ON e.tournament_id = t.id WHERE t.id = ANY(%s) GROUP BY t.id",
            (ids,),
        ).fetchall()
        twice = conn.execute(
            "SELECT e.tournament_id, e.user_id FROM tournaments_entry e WHERE e.tournament_id "
            "= ANY(%s) AND ((SELECT count(*) FROM games_seat s WHERE s.user_id = e.user_id) > 1 "
            "OR (SELECT count(*) FROM games_roundplayer p JOIN games_round r ON r.id = "
            "p.round_id WHERE p.user_id = e.user_id AND r.state IN ('arranging', 'showdown')) > 1)",
            (ids,),
        ).fetchall()
        with self.lock:
            for tournament_id, state, expected, total in chips:
                watch = self.tournaments[tournament_id]
                watch.observations += 1
                watch.state = state
                if state in ("running", "finished") and int(total) != int(expected):
                    watch.chip_breaks.append((now, int(total)))
            for tournament_id, user_id in twice:
                self.tournaments[tournament_id].seated_twice.append((now, user_id))

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
    entrants: list[TournamentPlayer],
    run_start: float,
    run_end: float,
) -> tuple[list[str], list[str]]:
    """The report lines and the broken invariants (the tournaments': analyse_tournaments)."""
    lines: list[str] = []
    broken: list[str] = []
    rounds = load_rounds(db)
    by_table: dict[int, list[RoundRow]] = defaultdict(list)
    for r in rounds:
        by_table[r.table_id].append(r)
    settlements = sorted(r.ended for r in rounds if r.outcome == "settled" and r.ended)

    # Rounds waiting for an absent player's deadline: slow by design, left out of recovery.
    absent_ids = {p.user_id: p for p in players}
    scripted = {p.user_id: p for p in [*players, *entrants]}
    unsubmitted = db.execute(
        "SELECT round_id, user_id FROM games_roundplayer "
        "WHERE submitted_at IS NULL AND user_id = ANY(%s)",
        (list(scripted),),
    ).fetchall()
    round_by_id = {r.id: r for r in rounds}
    waiting_for_absent: set[int] = set()
    for round_id, user_id in unsubmitted:
        found = round_by_id.get(round_id)
        player = scripted[user_id]
        if found is None:
            continue
        end = found.ended or run_end
        for start, stop in player.absences:
            if start is not None and start < end and (stop is None or stop > found.dealt):
                waiting_for_absent.add(round_id)

    tournament_tables = {
        t for (t,) in db.execute("SELECT table_id FROM tournaments_tournamenttable").fetchall()
    }
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
            if table_id in tournament_tables:
                continue  # an arena table plays one board; a tournament's tables close
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
    for seating_table in {p.table_id for p in players if p.table_id is not None}:
        if not any(
            r.outcome == "settled" and r.dealt >= run_start for r in by_table[seating_table]
        ):
            broken.append(f"scripted table {seating_table} settled no round")
    return lines, broken


def analyse_tournaments(
    db: psycopg.Connection[Any],
    options: argparse.Namespace,
    watches: dict[int, TournamentWatch],
    entrants: list[TournamentPlayer],
    run_start: float,
    run_end: float,
) -> tuple[list[str], list[str]]:
    """Per tournament: chips conserved at every observation, the pool netting to zero with
    its prizes paid exactly once, nothing stuck, nobody at two tables, an absent entrant's
    hands played for them (RULES.md section 8) and never eliminated or paired for it."""
    lines = ["", "tournaments:"]
    broken: list[str] = []
    now = float(db.execute("SELECT extract(epoch FROM clock_timestamp())").fetchone()[0])  # type: ignore[index]
    for tournament_id, watch in watches.items():
        kind, state, seats, stack, rules, started, finished, ends, played, minutes = db.execute(
            "SELECT kind, state, players, starting_stack, rules_overrides, extract(epoch FROM "
            "started_at), extract(epoch FROM finished_at), extract(epoch FROM ends_at), "
            "rounds_played, minutes FROM tournaments_tournament WHERE id = %s",
            (tournament_id,),
        ).fetchone()  # type: ignore[misc]
        label = f"{'sit-and-go' if kind == 'sit_and_go' else 'arena'} {tournament_id}"
        rounds = db.execute(
            "SELECT r.state, extract(epoch FROM r.dealt_at), extract(epoch FROM r.settled_at) "
            "FROM games_round r JOIN tournaments_tournamenttable l ON l.table_id = r.table_id "
            "WHERE l.tournament_id = %s",
            (tournament_id,),
        ).fetchall()
        tables = db.execute(
            "SELECT count(*) FROM tournaments_tournamenttable WHERE tournament_id = %s",
            (tournament_id,),
        ).fetchone()[0]  # type: ignore[index]
        entries = db.execute(
            "SELECT e.id, e.user_id, u.username, e.state, e.stack, e.place, e.prize "
            "FROM tournaments_entry e JOIN accounts_user u ON u.id = e.user_id "
            "WHERE e.tournament_id = %s ORDER BY e.place NULLS LAST, e.id",
            (tournament_id,),
        ).fetchall()
        settled = sum(r[0] == "settled" for r in rounds)
        head = (
            f"  {label}: {len(entries)} entrants, {state}"
            + (f" {float(finished) - run_start:.0f} s into the run" if finished else "")
            + (
                f" ({float(finished) - float(ends):+.0f} s after its end)"
                if finished and ends
                else ""
            )
            + f"; {len(rounds)} rounds dealt, {settled} settled, on {tables} tables"
            + (f"; level {played} rounds in" if kind == "sit_and_go" else f"; {minutes} min")
        )
        lines.append(head)
        # Chips: the sum of the stacks never changes while it runs.
        expected = int(seats) * int(stack)
        lines.append(
            f"    chips: sum of stacks = {len(entries)} x {stack} = {expected} at "
            f"{watch.observations - len(watch.chip_breaks)} of {watch.observations} observations"
        )
        if watch.chip_breaks:
            when, total = watch.chip_breaks[0]
            broken.append(
                f"{label}: chips not conserved at {len(watch.chip_breaks)} observations "
                f"(first {when - run_start:.0f} s in: {total} instead of {expected})"
            )
        if watch.observations == 0:
            broken.append(f"{label}: never observed")
        # Stuck: the longest stretch with nothing dealt or settled at its tables while it ran.
        # A round waiting for an absent player's arranging deadline is slow by design, so
        # the bound is the faults' recovery bound plus one such round.
        bound = (
            options.recover_within
            + int(rules.get("arrange_seconds", 60))
            + 3 * int(rules.get("reveal_seconds", 3))
            + SWEEP_SECONDS
        )
        if started is not None:
            marks = [float(t) for r in rounds for t in r[1:] if t is not None]
            until = float(finished) if finished else now
            longest = longest_gap(marks, float(started), until)
            lines.append(
                f"    longest stretch with nothing dealt or settled at its tables: "
                f"{longest:.1f} s (bound {bound:.0f} s)"
            )
            if longest > bound:
                broken.append(f"{label}: stuck, nothing dealt or settled for {longest:.1f} s")
        else:
            broken.append(f"{label}: never started")
        if kind == "arena" and state == "running" and ends and now > float(ends) + bound:
            broken.append(f"{label}: {now - float(ends):.0f} s past its end, not finished")
        # The pool: in by buy-ins, out by prizes, each prize once; zero once it is over.
        lines += _pool_lines(db, label, tournament_id, state, entries, broken)
        # Nobody at two tables (or in two live rounds) at once.
        lines.append(
            f"    entrants seated at two tables or in two live rounds: "
            f"{len(watch.seated_twice)} observations"
        )
        if watch.seated_twice:
            broken.append(
                f"{label}: user {watch.seated_twice[0][1]} at two tables "
                f"({len(watch.seated_twice)} observations)"
            )
        places = ", ".join(
            f"{e[5] or '-'}. {e[2]} ({e[3]}{f', {e[6]} xu' if e[6] else ''})" for e in entries
        )
        lines.append(f"    standings: {places}")
        for player in entrants:
            if player.tournament_id == tournament_id and (player.drop_on_deal or player.dropped):
                lines += _absent_lines(db, label, player, entries, broken, run_start)
    # Every tournament of the run that is over, watched or not: no xu left in its pool.
    stuck = ended_pools_holding_xu(db)
    lines.append(f"  tournaments over with xu still in their pool or a decided hold: {len(stuck)}")
    broken += stuck
    return lines, broken


ENDED = ("finished", "cancelled", "voided")
"""A tournament in one of these states is over: its pool must be closed and empty."""


def ended_pools_holding_xu(db: psycopg.Connection[Any]) -> list[str]:
    """Every tournament that is over (finished, cancelled or voided) has its pool closed and
    empty: paid (or, finished, held for review: then the xu sit in its prize hold until a
    moderator decides, and a decided hold is empty), refunded when cancelled or voided."""
    rows = db.execute(
        "SELECT t.id, t.state, coalesce(p.balance, 0), c.outcome, coalesce(h.balance, 0), "
        "EXISTS (SELECT 1 FROM ledger_prizeholddecision d JOIN ledger_prizehold ph "
        "ON ph.id = d.hold_id WHERE ph.tournament_id = t.id) "
        "FROM tournaments_tournament t "
        "LEFT JOIN ledger_account p ON p.key = 'pool:' || t.id "
        "LEFT JOIN ledger_account h ON h.key = 'prize_hold:' || t.id "
        "LEFT JOIN ledger_poolclosure c ON c.tournament_id = t.id "
        "WHERE t.state = ANY(%s) ORDER BY t.id",
        (list(ENDED),),
    ).fetchall()
    problems = []
    for tournament_id, state, pool, outcome, held, decided in rows:
        expected = ("paid", "held") if state == "finished" else ("refunded",)
        if pool != 0 or outcome not in expected:
            problems.append(
                f"tournament {tournament_id} {state}: its pool holds {pool} xu "
                f"(closure {outcome or 'none'})"
            )
        if held and (outcome != "held" or decided):
            problems.append(
                f"tournament {tournament_id} {state}: its prize hold keeps {held} xu "
                f"({'decided' if decided else 'no hold recorded'})"
            )
    return problems


def _pool_lines(
    db: psycopg.Connection[Any],
    label: str,
    tournament_id: int,
    state: str,
    entries: list[tuple[Any, ...]],
    broken: list[str],
) -> list[str]:
    pool = db.execute(
        "SELECT id, balance FROM ledger_account WHERE key = %s", (f"pool:{tournament_id}",)
    ).fetchone()
    if pool is None:
        broken.append(f"{label}: no pool")
        return []
    flows = dict(
        db.execute(
            "SELECT kind, coalesce(sum(amount), 0) FROM ledger_transfer "
            "WHERE credit_id = %s OR debit_id = %s GROUP BY kind",
            (pool[0], pool[0]),
        ).fetchall()
    )
    # Prizes come from the pool, or (held for review, then released) from the prize hold.
    paid = db.execute(
        "SELECT a.user_id, count(*), sum(t.amount) FROM ledger_transfer t JOIN ledger_account "
        "a ON a.id = t.credit_id JOIN ledger_account d ON d.id = t.debit_id "
        "WHERE d.key IN (%s, %s) AND t.kind = 'prize' GROUP BY a.user_id",
        (f"pool:{tournament_id}", f"prize_hold:{tournament_id}"),
    ).fetchall()
    closure = db.execute(
        "SELECT outcome FROM ledger_poolclosure WHERE tournament_id = %s", (tournament_id,)
    ).fetchone()
    released = db.execute(
        "SELECT d.outcome FROM ledger_prizeholddecision d JOIN ledger_prizehold h "
        "ON h.id = d.hold_id WHERE h.tournament_id = %s",
        (tournament_id,),
    ).fetchone()
    into = int(flows.get("buy_in", 0)) - int(flows.get("buy_in_refund", 0))
    owed = {e[1]: int(e[6]) for e in entries if e[6]}
    if closure is not None and closure[0] == "held" and (released or ("",))[0] != "released":
        owed = {}  # under review, or the buy-ins returned: no prize is paid
    got = {user: (int(count), int(amount)) for user, count, amount in paid}
    twice = [user for user, (count, _amount) in got.items() if count > 1]
    wrong = [u for u in set(owed) | set(got) if got.get(u, (0, 0))[1] != owed.get(u, 0)]
    out = [
        f"    pool: {into} xu in, prizes {sum(a for _c, a in got.values())} xu to "
        f"{len(got)} entrants ({sum(c for c, _a in got.values())} transfers), balance "
        f"{pool[1]}, closure {closure[0] if closure else 'none'}"
    ]
    if twice:
        broken.append(f"{label}: a prize paid more than once (users {twice})")
    if wrong:
        broken.append(f"{label}: prizes paid differ from the entries' prizes (users {wrong})")
    if state == "finished" and (
        pool[1] != 0 or closure is None or closure[0] not in ("paid", "held")
    ):
        broken.append(f"{label}: finished but its pool holds {pool[1]} xu (closure {closure})")
    if state in ("cancelled", "voided") and (
        pool[1] != 0 or closure is None or closure[0] != "refunded"
    ):
        broken.append(f"{label}: {state} but its pool holds {pool[1]} xu (closure {closure})")
    if state != "finished" and got:
        broken.append(f"{label}: prizes paid before it finished")
    if state in ("registering", "running") and closure is not None:
        broken.append(f"{label}: its pool closed while it is still {state}")
    return out


def _absent_lines(
    db: psycopg.Connection[Any],
    label: str,
    player: TournamentPlayer,
    entries: list[tuple[Any, ...]],
    broken: list[str],
    run_start: float,
) -> list[str]:
    """The entrant who dropped: every hand dealt to them from the drop on played for them,
    never stood up or out for being away, never paired again once away (no connection for
    the presence timeout)."""
    if player.dropped_at is None:
        broken.append(f"{label}: {player.name} was never dealt a board to drop at")
        return [f"    {player.name}: never dealt a board (meant to drop at its first)"]
    hands = db.execute(
        "SELECT r.id, r.state, p.auto_arranged, p.submitted_at IS NOT NULL, extract(epoch "
        "FROM t.created_at), (SELECT count(*) FROM tournaments_arenaresult a WHERE "
        "a.round_id = r.id AND a.entry_id = e.id) FROM games_roundplayer p JOIN games_round r "
        "ON r.id = p.round_id JOIN games_table t ON t.id = r.table_id JOIN tournaments_entry e "
        "ON e.user_id = p.user_id AND e.tournament_id = %s WHERE p.user_id = %s AND "
        "(r.settled_at IS NULL OR r.settled_at > to_timestamp(%s))",
        (player.tournament_id, player.user_id, player.dropped_at),
    ).fetchall()
    played_for = [h for h in hands if h[1] == "settled" and h[2] and not h[3]]
    not_played = [h[0] for h in hands if h[1] == "settled" and not h[2] and not h[3]]
    unscored = [h[0] for h in played_for if player.arena and not h[5]]
    limit = player.dropped_at + AWAY_SECONDS + 1.0
    paired_away = [h[0] for h in hands if float(h[4]) > limit]
    entry = next(e for e in entries if e[1] == player.user_id)
    eliminated = entry[3] not in ("playing", "finished", "won")
    if not_played:
        broken.append(f"{label}: {player.name}'s hands not played for them: {not_played}")
    if unscored:
        broken.append(f"{label}: {player.name}'s boards played for them scored nothing: {unscored}")
    if paired_away:
        broken.append(f"{label}: {player.name} paired again while away: rounds {paired_away}")
    if eliminated:
        broken.append(f"{label}: {player.name} eliminated while away ({entry[3]})")
    if not played_for and not any(h[1] in LIVE for h in hands):
        broken.append(f"{label}: {player.name} had no hand played for them")
    return [
        f"    {player.name} dropped {player.dropped_at - run_start:.0f} s in: hands from the "
        f"drop on {len(hands)}, played for them {len(played_for)} "
        f"({', '.join(sorted({str(h[2]) for h in played_for})) or '-'}), not played "
        f"{len(not_played)}, boards scored {len(played_for) - len(unscored)}; entry "
        f"{entry[3]} (place {entry[5] or '-'}); paired again while away {len(paired_away)}"
    ]


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
    entered: Entered | None,
    monitor: Monitor,
    database_url: str,
    faults: list[Fault],
    rng: random.Random,
) -> tuple[list[ScriptedPlayer], list[TournamentPlayer], Injector, float, float]:
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
    entrants: list[TournamentPlayer] = []
    if entered is not None:
        # Their own random stream: the faults' choices stay those of runs without them.
        own = random.Random(f"entrants-{options.seed}")
        user_id, name, key = entered.sng_player
        entrants.append(
            TournamentPlayer(
                user_id, name, key, entered.sng_table, stack.bases, 1,
                random.Random(own.random()), stats, tournament_id=entered.sit_and_go, arena=False,
            )
        )  # fmt: skip
        for k, (user_id, name, key) in enumerate(entered.arena_players):
            entrants.append(
                TournamentPlayer(
                    user_id, name, key, None, stack.bases, k % len(stack.bases),
                    random.Random(own.random()), stats, tournament_id=entered.arena, arena=True,
                )
            )  # fmt: skip
        entrants[-1].drop_on_deal = True  # the arena's dropper: gone at its first board
    dropper = players[3] if len(players) >= 4 else None  # seat 4 of the first table, on daphne0
    injector = Injector(stack, monitor, database_url, rng, options)
    supervisor = asyncio.create_task(stack.supervise())
    start = time.time()
    stop_at = start + options.minutes * 60
    tasks = [asyncio.create_task(p.run(stop_at)) for p in [*players, *entrants]]
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
    for p in [*players, *entrants]:
        await p.close()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for player, result in zip([*players, *entrants], results, strict=True):
        if isinstance(result, BaseException):
            stats.stopped_players.append(f"{player.name}: {result!r}")
    stack.supervising = False
    await supervisor
    return players, entrants, injector, start, end


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
    options = parser.parse_args()
    if options.player_tables < 1:
        parser.error("--player-tables must be at least 1 (one of its players drops)")
    options.arena_minutes = options.arena_minutes or max(2, min(20, int(options.minutes * 0.8)))

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
        _bot_tables, seatings, entered = prepare(stack.env, options)
        if entered is not None:
            monitor.tournaments = {
                entered.sit_and_go: TournamentWatch(),
                entered.arena: TournamentWatch(),
            }
        monitor.start()
        players, entrants, injector, start, end = asyncio.run(
            play(options, stack, seatings, entered, monitor, database_url, faults, rng)
        )
        load_end = os.getloadavg()
        episodes = monitor.finish()
        with psycopg.connect(database_url, autocommit=True, application_name="chaos-harness") as db:
            lines, broken = analyse(db, options, faults, episodes, players, entrants, start, end)
            if entered is not None:
                more, also = analyse_tournaments(
                    db, options, monitor.tournaments, entrants, start, end
                )
                lines += more
                broken += also
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
