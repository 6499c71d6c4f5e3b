"""The load generator's own conditions: what the players time should be the servers' doing.

The players of ``bench_tables.py`` and ``bench_floor.py`` are one process on the machine
that serves them; the pages they stand for run on 800 devices of their own. Two things
of that one process used to count in the servers' figures (measured 7 Dec 2026):

- **Its share of the cores.** With the servers using both cores, the players' process
  waited its turn like any other: its event loop fell up to 2.6 s behind in a storm, and
  0.2–0.5 s at a time in steady play, while the events it timed sat in its socket
  buffers. It now runs ahead of the servers (``PLAYERS_NICE``, ``--players-nice``); its
  CPU still comes out of the same two cores and is still reported.
- **Its garbage collector.** The heap built before the play (the tables, the sessions,
  Django) is frozen out of the collector's passes (``gc.freeze``), and each player keeps
  only the messages it may still wait for (``Player.forget_through``).

``loop_lag`` measures what is left: how late the players' event loop runs a timer, printed
with the figures (``report``)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

PLAYERS_NICE = -10
"""The players' process's nice value while they play (0 is the servers'); raising it takes
CAP_SYS_NICE (root), and without it the players run at the servers' priority."""

LAG_PERIOD = 0.02
"""How often the loop's lag is sampled: a sleep this long, and how much later it woke."""


@dataclass
class LoadGenerator:
    """How the players' process ran: its nice value (None: not raised) and its loop's lags."""

    nice: int | None
    lags: list[float] = field(default_factory=list)  # seconds late, one a sample


@contextlib.contextmanager
def players_first(nice: int = PLAYERS_NICE) -> Iterator[LoadGenerator]:
    """The calling thread (and the threads and processes it starts) ahead of the servers
    on the cores, with the heap built so far out of the collector's passes; both undone
    after. Start the servers before, or lower a thread's priority before it starts one
    (``at_server_priority``)."""
    before = os.getpriority(os.PRIO_PROCESS, 0)
    try:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
        generator = LoadGenerator(nice)
    except PermissionError:
        generator = LoadGenerator(None)
    gc.collect()
    gc.freeze()
    try:
        yield generator
    finally:
        gc.unfreeze()
        os.setpriority(os.PRIO_PROCESS, 0, before)  # a higher value is always allowed


def at_server_priority(nice: int) -> None:
    """Put the calling thread (and what it starts) back at the servers' nice value: a
    server started during the play (a cold restart) must not run ahead as the players do."""
    with contextlib.suppress(PermissionError):
        os.setpriority(os.PRIO_PROCESS, 0, nice)


async def loop_lag(generator: LoadGenerator) -> None:
    """Sample how late the players' event loop runs a timer, until cancelled."""
    while True:
        asked = time.monotonic()
        await asyncio.sleep(LAG_PERIOD)
        generator.lags.append(time.monotonic() - asked - LAG_PERIOD)
