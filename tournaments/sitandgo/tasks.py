"""A sit-and-go's timers. Each takes ids (and the state it expects) and calls a guarded
service.

Retried on transient database faults like the games' timers (``games.tasks.RETRY``): every
step is idempotent, so a retry, a duplicate or a late delivery never acts twice. The
sweeper (``tournaments.sweep``, every 5 s: ``sweep_sitandgos``) runs what a lost timer left
due. Each keeps the name it was registered under (``name=``), so a timer queued before a
deploy still runs after it.
"""

from __future__ import annotations

from celery import shared_task

from games.tasks import RETRY
from tournaments.sitandgo import services


@shared_task(name="tournaments.fill_with_bots", ignore_result=True, **RETRY)
def fill_with_bots_task(tournament_id: int, expected_bots_at: str) -> None:
    """Bots take the free places and the tournament starts, if nobody registered since."""
    services.fill_with_bots(tournament_id, expected_bots_at)


@shared_task(name="tournaments.table_step", ignore_result=True, **RETRY)
def table_step_task(tournament_id: int) -> None:
    """After a round settled: stand up who is out, balance, level and close tables."""
    services.table_step(tournament_id)
