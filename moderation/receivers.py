"""Hooks into the games app: note who sits where from which address."""

from __future__ import annotations

from typing import Any

from games.signals import seat_changed


def on_seat_changed(sender: Any, table_id: int, **_kwargs: Any) -> None:
    # Sent after the commit; receivers enqueue, the task calls the service.
    from moderation.tasks import record_seat_ips

    record_seat_ips.delay(table_id)


def connect() -> None:
    seat_changed.connect(on_seat_changed, dispatch_uid="moderation.on_seat_changed")
