"""One socket's table events, delivered in version order, and each at its time."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

HOLD_SECONDS = 1.5
"""How long an early event waits for the ones before it before it goes out anyway."""

Send = Callable[[Any], Awaitable[None]]
"""Sends one message: a snapshot (a dict) or an event (its JSON text, or a dict)."""


class InOrder:
    """Puts a table's events back in version order for one socket.

    Events leave after their transaction commits, so the events of two commands that
    commit one right after the other can overtake each other on the way: the later
    command's thread (or another process) sends while the earlier one is still sending.
    Every public event carries the table version it produced, one more than the one before
    it; an event that arrives early is held until those before it arrive. One that never
    comes (a lost broadcast) is given up on after ``hold`` seconds: the client sees the gap
    and asks for a snapshot. A private event carries the version of the public event it
    accompanies and goes out after it.

    An event may come with events that follow it at set times (a showdown's later chi:
    games.events.message, docs/protocol.md "Reveals"). Each is held here until it is due,
    then goes out as a private one (it carries the version of the event that sent it);
    one with the key of one still held replaces it, a snapshot's replace them all, the
    round's settlement sends those still held first and its void drops them.
    """

    def __init__(self, send: Send, hold: float = HOLD_SECONDS) -> None:
        self._send = send
        self.hold = hold
        self.version: int | None = None  # the last public version this socket was sent
        self._held: list[tuple[int, bool, int, Any]] = []
        self._arrival = itertools.count()
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._release: asyncio.Task[None] | None = None
        # key: (its round, its version, its text, the timer that sends it)
        self._later: dict[str, tuple[Any, int, Any, asyncio.TimerHandle]] = {}
        self._due: set[asyncio.Task[None]] = set()

    async def snapshot(
        self, snapshot: dict[str, Any], later: Iterable[dict[str, Any]] = ()
    ) -> None:
        """Send a snapshot: every event up to its version is in it; ``later``: the events
        still to come at their times (games.selectors.snapshot_and_later), in place of those
        held."""
        async with self._lock:
            await self._send(snapshot)
            version = snapshot["version"]
            self.version = version if self.version is None else max(self.version, version)
            self._drop(lambda _round: True)
            for item in later:
                self._hold(item, item["text"], version)
            await self._flush()

    async def deliver(self, message: dict[str, Any], user_id: int | None) -> None:
        """One channel-layer message of the table (games.events.message) for ``user_id``:
        its text (or, for someone outside its audience, ``others``), then the events it
        sends ahead, each held until it is due."""
        head = message["head"]
        outside = message.get("audience") is not None and user_id not in message["audience"]
        kind, round_id = head.get("type"), head.get("round")
        if kind in ("settled", "voided") and round_id is not None:
            await self._end_round(round_id, send=kind == "settled")
        text = message.get("others", message["text"]) if outside else message["text"]
        await self.event(text, head.get("version"), message.get("private", False))
        version = head.get("version")
        if isinstance(version, int):
            for item in message.get("later", ()):
                mine = item.get("others", item["text"]) if outside else item["text"]
                self._hold(item, mine, version)

    async def event(self, payload: Any, version: Any, private: bool = False) -> None:
        """Send (or hold) an event that carries table ``version`` (None: not ordered)."""
        async with self._lock:
            if self.version is None or not isinstance(version, int):
                await self._send(payload)  # before the first snapshot: nothing to order by
                return
            heapq.heappush(self._held, (version, private, next(self._arrival), payload))
            await self._flush()
            if self._held and self._timer is None:
                self._timer = asyncio.get_running_loop().call_later(self.hold, self._give_up)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._release is not None:
            self._release.cancel()
        self._drop(lambda _round: True)
        for task in self._due:
            task.cancel()

    def _hold(self, item: dict[str, Any], text: Any, version: int) -> None:
        key = item["key"]
        if key in self._later:
            self._later.pop(key)[3].cancel()
        delay = max(0.0, float(item["at"]) - time.time())
        handle = asyncio.get_running_loop().call_later(delay, self._due_now, key)
        self._later[key] = (item.get("round"), version, text, handle)

    def _due_now(self, key: str) -> None:
        held = self._later.pop(key, None)
        if held is None:
            return
        _round, version, text, _handle = held
        task = asyncio.ensure_future(self.event(text, version, private=True))
        self._due.add(task)
        task.add_done_callback(self._due.discard)

    def _drop(self, which: Callable[[Any], bool]) -> list[tuple[int, Any]]:
        """Stop holding the events of the rounds ``which`` picks; returns them, oldest first."""
        dropped = []
        for key, (round_id, version, text, handle) in list(self._later.items()):
            if which(round_id):
                handle.cancel()
                del self._later[key]
                dropped.append((version, key, text))
        return [(version, text) for version, _key, text in sorted(dropped)]

    async def _end_round(self, round_id: Any, *, send: bool) -> None:
        """The round is over: what it still held goes out now (settled) or never (voided)."""
        for version, text in self._drop(lambda held: held == round_id):
            if send:
                await self.event(text, version, private=True)

    async def _flush(self) -> None:
        assert self.version is not None
        while self._held:
            version, private, _, payload = self._held[0]
            if version > (self.version if private else self.version + 1):
                break
            heapq.heappop(self._held)
            if not private:
                self.version = max(self.version, version)
            await self._send(payload)
        if not self._held and self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _give_up(self) -> None:
        self._timer = None
        self._release = asyncio.ensure_future(self._send_held())

    async def _send_held(self) -> None:
        async with self._lock:
            while self._held:
                version, private, _, payload = heapq.heappop(self._held)
                if not private and self.version is not None:
                    self.version = max(self.version, version)
                await self._send(payload)
