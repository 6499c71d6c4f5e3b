"""One socket's table events, delivered in version order."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable, Callable
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

    async def snapshot(self, snapshot: dict[str, Any]) -> None:
        """Send a snapshot: every event up to its version is in it."""
        async with self._lock:
            await self._send(snapshot)
            version = snapshot["version"]
            self.version = version if self.version is None else max(self.version, version)
            await self._flush()

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
