"""The scripted players of a chaos run: browser tabs at a table over a websocket (sitting,
arranging, submitting, pinging, reconnecting through the other daphne as a proxy would),
and the tournaments' entrants, who follow their seat from table to table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import websockets

from benchmarks.chaos import log


def arrange(cards: list[str]) -> list[list[str]]:
    from games.rules import Rules, format_cards, parse_cards
    from games.rules.arrange import suggest

    best = suggest(parse_cards(cards), Rules.preset("portal"), n=1)[0]
    return [format_cards(part) for part in best.chi]


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
