"""The sweeper: what no timer moved on, for every kind (the ``tournaments.sweep`` task).

It runs each kind's own sweep (``sitandgo.services.sweep_sitandgos``: bots due, table
steps; ``arena.services.sweep_arenas``: starts, ends, boards over, queues), then the
watchdog (``tournaments.watchdog``), which ends what none of them could move on for
TOURNAMENT_STALL_MINUTES. Each step runs in its own transaction and skips tables locked
elsewhere, so one stuck table never stalls the sweep.

This module and the watchdog sit above both kinds (with the views, the URLs and the app's
``ready``): they import the kinds; the kinds import only what both share
(``tournaments.services``, ``tournaments.selectors``), never each other nor this
(import-linter holds it: pyproject.toml).
"""

from __future__ import annotations

from datetime import timedelta

from tournaments import watchdog
from tournaments.arena.services import sweep_arenas
from tournaments.sitandgo.services import sweep_sitandgos


def sweep_tournaments(grace: timedelta = timedelta(seconds=2)) -> int:
    """Run what lost timers left due, every kind's, then end what stalled. Returns how many
    steps moved something."""
    moved = sweep_sitandgos(grace)
    moved += sweep_arenas(grace)
    # Last: what no timer and no step above could move on for TOURNAMENT_STALL_MINUTES.
    moved += watchdog.sweep_stalled()
    return moved
