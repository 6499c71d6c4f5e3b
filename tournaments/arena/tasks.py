"""An arena's timers. Each takes ids (and what it expects) and calls a guarded service.

Retried on transient database faults like every timer (``games.tasks.RETRY``); every step
is idempotent, so a retry, a duplicate or a late delivery never acts twice, and the
sweeper (``tournaments.sweep`` -> ``services.sweep_arenas``) runs what a lost timer left
due. Each keeps the name it was registered under (``name=``), so a timer queued before a
deploy still runs after it.
"""

from __future__ import annotations

from celery import shared_task

from games.tasks import RETRY
from tournaments.arena import services


@shared_task(name="tournaments.arena_start", ignore_result=True, **RETRY)
def arena_start_task(tournament_id: int, expected_starts_at: str) -> None:
    """The set time: the arena starts (or, with fewer than two players, is cancelled)."""
    services.start_when_due(tournament_id, expected_starts_at)


@shared_task(name="tournaments.arena_pair", ignore_result=True, **RETRY)
def arena_pair_task(tournament_id: int) -> None:
    """Seat the queue as it stands (a join, a return, a board over, the short wait)."""
    services.pair(tournament_id)


@shared_task(name="tournaments.arena_finish_table", ignore_result=True, **RETRY)
def finish_table_task(tournament_id: int, table_id: int) -> None:
    """A board's summary has shown: its players go back to the queue."""
    services.finish_table(tournament_id, table_id)


@shared_task(name="tournaments.arena_end", ignore_result=True, **RETRY)
def arena_end_task(tournament_id: int) -> None:
    """The time is up: no more boards; the ranking once the boards in play finish."""
    services.end(tournament_id)
