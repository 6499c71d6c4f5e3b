"""Hooks into the games app: note who sits where from which address, and audit staff
who open a private table by their role alone."""

from __future__ import annotations

from typing import Any

from games.signals import seat_changed, staff_entered_private_table


def on_seat_changed(sender: Any, table_id: int, **_kwargs: Any) -> None:
    # Sent after the commit; receivers enqueue, the task calls the service.
    from moderation.tasks import record_seat_ips

    record_seat_ips.delay(table_id)


def on_staff_entered_private_table(
    sender: Any, staff_id: int, table_id: int, **_kwargs: Any
) -> None:
    from moderation.tasks import record_private_table_visit

    record_private_table_visit.delay(staff_id, table_id)


def connect() -> None:
    seat_changed.connect(on_seat_changed, dispatch_uid="moderation.on_seat_changed")
    staff_entered_private_table.connect(
        on_staff_entered_private_table, dispatch_uid="moderation.on_staff_entered_private_table"
    )
