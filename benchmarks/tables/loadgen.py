"""The load generator's own conditions: what the players time should be the servers' doing.

The players of ``bench_tables.py`` and ``bench_floor.py`` are one process on the machine
that serves them; the pages they stand for run on 800 devices of their own. What that one
process does for itself used to count in the servers' figures (measured 7 Dec 2026): each
player kept every message of the run, and the collector's full passes over that heap held
the players' event loop 0.2–0.5 s at a time every few seconds (1.8 s once in a storm),
while the events it timed waited in its socket buffers. Now the heap built before the play
(the tables, the sessions, Django) is frozen out of the collector's passes
(``players_heap_frozen``), and each player keeps only the messages it may still wait for
(``Player.forget_through``).

``loop_lag`` measures what is left: how late the players' event loop runs a timer, printed
with the figures (``report``)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

LAG_PERIOD = 0.02
"""How often the loop's lag is sampled: a sleep this long, and how much later it woke."""


@dataclass
class LoadGenerator:
    """How the players' event loop ran: how late it woke, one sample every LAG_PERIOD."""

    lags: list[float] = field(default_factory=list)  # seconds late


@contextlib.contextmanager
def players_heap_frozen() -> Iterator[LoadGenerator]:
    """The heap built so far out of the collector's passes while the players play."""
    gc.collect()
    gc.freeze()
    try:
        yield LoadGenerator()
    finally:
        gc.unfreeze()


async def loop_lag(generator: LoadGenerator) -> None:
    """Sample how late the players' event loop runs a timer, until cancelled."""
    while True:
        asked = time.monotonic()
        await asyncio.sleep(LAG_PERIOD)
        generator.lags.append(time.monotonic() - asked - LAG_PERIOD)
