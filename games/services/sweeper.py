"""The sweeper: advances what lost timers or dead workers left due."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.utils import timezone

from games.models import Round, RoundState, Table
from games.services.rounds import start_round_when_due
from games.services.showdown import advance_round
from games.services.timers import GRACE

logger = logging.getLogger(__name__)


def sweep_due_rounds(now: datetime | None = None, grace: timedelta = GRACE) -> int:
    """Advance every round and table whose deadline has passed (lost timers, dead workers).

    Each step runs in its own transaction and skips a table whose lock someone else holds
    (SKIP LOCKED): a stuck process holding one table's lock must not stall the sweep of
    every other table. The skipped table is tried again by the next sweep.
    """
    now = now or timezone.now()
    moved = 0
    due_rounds = (
        Round.objects.filter(
            state__in=[RoundState.ARRANGING, RoundState.SHOWDOWN], deadline__lte=now - grace
        )
        .order_by("deadline")
        .values_list("pk", "state", "phase")
    )
    for round_id, state, phase in due_rounds:
        try:
            moved += advance_round(round_id, state, phase, skip_locked=True) is not None
        except Exception:
            logger.exception("sweeper could not advance round %s", round_id)
    due_tables = (
        Table.objects.filter(start_at__lte=now - grace)
        .order_by("start_at")
        .values_list("pk", flat=True)
    )
    for table_id in due_tables:
        try:
            moved += start_round_when_due(table_id, skip_locked=True) is not None
        except Exception:
            logger.exception("sweeper could not start a round at table %s", table_id)
    return moved
