"""bench_tables.py's scripted player: sits, plays every round, reconnects when its server
dies (tests/support/wsclient.py underneath)."""

from __future__ import annotations

import asyncio
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import websockets

from benchmarks.tables.measures import Stats
from tests.support.arranging import naive_arrangement
from tests.support.wsclient import Player, SocketClosed


class BenchPlayer:
    """One scripted player: sits, plays every round, reconnects when its server dies."""

    def __init__(self, base: str, key: str, table_id: int, name: str, stats: Stats) -> None:
        self.base, self.key, self.table_id, self.name = base, key, table_id, name
        self.stats = stats
        self.client = self._client()
        self.history: list[str] = []  # what happened to its connections (printed on failure)
        self.played: set[int] = set()  # rounds it submitted for (or tried to)
        self.settled_at: list[float] = []  # when each round it played was settled

    def _client(self) -> Player:
        return Player(self.base, f"sessionid={self.key}", self.table_id, self.name)

    async def open(self) -> dict[str, Any]:
        """Connect and return the snapshot; every failure (a handshake, or no snapshot) is
        counted."""
        started = time.monotonic()
        try:
            snapshot = await self.client.connect()
        except (OSError, TimeoutError, websockets.WebSocketException) as exc:
            self.stats.failed_handshakes[type(exc).__name__] += 1
            raise
        self.stats.handshakes.append((time.monotonic() - started) * 1000)
        return snapshot

    async def reopen(self) -> dict[str, Any]:
        """After the server died: reconnect as soon as a server listens on the port again.

        A refused TCP connection (nothing listening yet) is retried; a handshake the new
        server does not complete is a failure, counted, and retried too.
        """
        deadline = time.monotonic() + 60
        failures = 0
        # The page's first try comes half a second after the close, give or take a quarter
        # (live.js), which spreads a storm's sockets as it spreads the pages'.
        await asyncio.sleep(0.5 * random.uniform(0.75, 1.25))
        while True:
            self.client = self._client()
            try:
                snapshot = await self.client.connect()
            except ConnectionRefusedError:
                pass
            except (OSError, TimeoutError, websockets.WebSocketException) as exc:
                self.stats.failed_handshakes[f"reconnect: {type(exc).__name__}: {exc}"[:90]] += 1
                # Counted (the run fails); then back off as the page does (live.js).
                failures += 1
                await asyncio.sleep(min(8.0, 0.5 * 2**failures) * random.uniform(0.75, 1.25))
            else:
                self.stats.reconnects.append(time.monotonic())
                return snapshot
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: no server for 60 s")
            await asyncio.sleep(random.uniform(0.1, 0.3))

    async def play(
        self, is_host: bool, delay: float, sit_after: float, pool: ProcessPoolExecutor
    ) -> None:
        stats = self.stats
        await asyncio.sleep(delay)
        await self.open()
        await asyncio.sleep(sit_after)
        await self.client.request(type="sit")
        if is_host:
            await self.client.request(type="start")
        dealt: tuple[int, list[str]] | None = None
        while True:
            try:
                if dealt is None:
                    dealt = await self._next_deal(is_host)
                    if dealt is None and time.monotonic() >= stats.stop_at:
                        break
                if dealt is not None:
                    if not stats.to_play(self.table_id, dealt[0]):
                        break  # dealt after the run's end: nobody at the table plays it
                    await self._play_round(*dealt, is_host=is_host, pool=pool)
                    dealt = None
            except SocketClosed:
                snapshot = await self.reopen()
                dealt = self._unsubmitted(snapshot)
                current = snapshot.get("round") or {}
                self.history.append(
                    f"reopened at v{snapshot['version']}: round {current.get('id')} "
                    f"{current.get('state')}, resubmit: {dealt is not None}"
                )
        await self.client.close()

    async def _next_deal(self, is_host: bool) -> tuple[int, list[str]] | None:
        try:
            # Not a round already played: a socket opened during a deal has its cards
            # both in the snapshot and in the deal's event.
            cards = await self.client.wait_for(
                lambda m: m["type"] == "cards" and m["round"] not in self.played, timeout=40
            )
        except TimeoutError:
            if is_host:
                await self.client.request(type="start")
            return None
        if is_host:
            self.stats.deals.append(cards["_at"])
        return cards["round"], cards["cards"]

    def _unsubmitted(self, snapshot: dict[str, Any]) -> tuple[int, list[str]] | None:
        """The round to submit for, if the snapshot shows one dealt to me and not submitted."""
        current = snapshot.get("round") or {}
        mine = current.get("you")
        if current.get("state") == "arranging" and mine and mine["arrangement"] is None:
            return current["id"], mine["cards"]
        return None

    async def _play_round(
        self, round_id: int, cards: list[str], *, is_host: bool, pool: ProcessPoolExecutor
    ) -> None:
        stats, client = self.stats, self.client
        self.played.add(round_id)
        # The naive baseline (about 0.7 ms): the auto-arrange's ``suggest`` (6.6 ms mean) cost the
        # load generator 25 ms of the machine's CPU a round, which the site lost.
        chi = await asyncio.get_running_loop().run_in_executor(pool, naive_arrangement, cards)
        await self._pause(random.uniform(0.5, 3.0))  # thinking
        sent = time.monotonic()
        reply = await client.request(type="submit", round=round_id, chi=chi)
        if reply["type"] == "error":
            stats.refused[reply["code"]] += 1
            return
        mine = await client.wait_for(
            lambda m: m["type"] == "submission" and m["round"] == round_id, timeout=30
        )
        stats.record(sent, reply, mine)
        settled = await client.wait_for(
            lambda m: m["type"] == "settled" and m["round"] == round_id, timeout=60
        )
        self.settled_at.append(settled["_at"])
        client.forget_through(settled)  # the round's messages: none is waited for again
        now = time.monotonic()
        if is_host and stats.measure_from <= now < stats.measure_until:
            stats.rounds += 1
        if stats.killed_at is not None and sent > stats.killed_at:
            stats.played_on.add(self.table_id)
        if stats.read is not None:
            await self._ready(round_id, random.uniform(*stats.read))

    async def _pause(self, seconds: float) -> None:
        """A person's pause (thinking, reading the summary). The page notices its socket
        closing meanwhile and reconnects (live.js); so does this player: a pause that sleeps
        through the close would count its own sleep as the server's reconnection time."""
        try:
            await asyncio.wait_for(self.client.gone.wait(), seconds)
        except TimeoutError:
            return
        raise SocketClosed(f"{self.name}: the socket closed")

    async def _ready(self, round_id: int, after: float) -> None:
        """Read the summary for ``after`` seconds, then say ready (docs/protocol.md, "Between
        rounds"): the last of the table's four to say it has the next round dealt at once."""
        await self._pause(after)
        self.stats.readies += 1
        reply = await self.client.request(type="ready", round=round_id)
        if reply["type"] != "error":
            return
        if reply["code"] == "not_between_rounds":  # the countdown ran out first: dealt
            self.stats.readies_late += 1
        else:
            self.stats.refused[f"ready: {reply['code']}"] += 1
