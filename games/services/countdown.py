"""The automatic start: the countdown that deals the next round."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.models import (
    Table,
)
from games.selectors import (
    active_round,
)
from games.services.common import bump, table_event


def schedule_auto_start(table: Table) -> None:
    """Restart the automatic start countdown if two or more wait and no round runs."""
    if active_round(table) is not None:
        return
    if table.seat_set.count() < 2:
        if table.start_at is not None:
            table.start_at = None
            bump(table, "start_at")
            table_event(table, {"type": "countdown", "start_at": None}, lobby=True)
        return
    set_start(table, timezone.now() + timedelta(seconds=table.rules.start_seconds))


def set_start(table: Table, when: datetime, *, taken: int | None = None) -> None:
    table.start_at = when
    bump(table, "start_at")
    table_event(
        table,
        {"type": "countdown", "start_at": when.isoformat()},
        lobby=True,
        taken=taken,
        state="starting",
    )
    enqueue_start(table.pk, when)


def enqueue_start(table_id: int, when: datetime) -> None:
    from games.tasks import start_round_when_due

    # robust: see common.enqueue_advance (the sweeper starts a due table without its timer).
    transaction.on_commit(
        lambda: start_round_when_due.apply_async((table_id, when.isoformat()), eta=when),
        robust=True,
    )
