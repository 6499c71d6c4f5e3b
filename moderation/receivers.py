"""Hooks into the games app: note who sits where from which address, audit staff who open
a private table by their role alone, and answer whether collusion signals fire among a
finishing tournament's entrants; and into the ledger: tell a tournament's entrants that
its prizes are held for review."""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

from games.signals import collusion_check_requested, seat_changed, staff_entered_private_table
from ledger.signals import prize_hold_changed

logger = logging.getLogger(__name__)

SEAT_IPS_DELAY_SECONDS = 2
"""How long the recording of a table's addresses waits for more seat changes to join it."""
SEAT_IPS_PENDING_SECONDS = 60
"""How long a pending recording is trusted to run; after that a seat change sends another."""


def seat_ips_pending_key(table_id: int) -> str:
    return f"moderation:seat-ips-pending:{table_id}"


def on_seat_changed(sender: Any, table_id: int, **_kwargs: Any) -> None:
    """Sent after the commit: record who sits at the table from which address, once for a
    burst of changes (four players sitting down together) instead of once each.

    The task clears the pending mark before it reads who is seated, so a change that
    finds the mark set is read by the pending task; one after it sends another."""
    from moderation.tasks import record_seat_ips_task

    try:
        first = cache.add(seat_ips_pending_key(table_id), 1, timeout=SEAT_IPS_PENDING_SECONDS)
    except Exception:
        logger.exception("seat addresses: the pending mark could not be read; recording anyway")
        first = True
    if first:
        record_seat_ips_task.apply_async((table_id,), countdown=SEAT_IPS_DELAY_SECONDS)


def on_staff_entered_private_table(
    sender: Any, staff_id: int, table_id: int, **_kwargs: Any
) -> None:
    from moderation.tasks import record_private_table_visit_task

    record_private_table_visit_task.delay(staff_id, table_id)


def on_collusion_check_requested(
    sender: Any, user_ids: list[int], round_ids: list[int], **_kwargs: Any
) -> list[dict[str, Any]]:
    """Inside the tournament's finishing transaction: the signals among its entrants."""
    from moderation.collusion import tournament_findings

    return tournament_findings(user_ids, round_ids)


def on_prize_hold_changed(sender: Any, tournament_id: int, outcome: str, **_kwargs: Any) -> None:
    """After the commit: a tournament's prizes were held; its entrants are told (the
    decisions' notices are written with the decision, ``services.decide_prizes``)."""
    if outcome != "held":
        return
    from moderation.services.prizes import notify_prize_hold

    notify_prize_hold(tournament_id)


def connect() -> None:
    collusion_check_requested.connect(
        on_collusion_check_requested, dispatch_uid="moderation.on_collusion_check_requested"
    )
    prize_hold_changed.connect(on_prize_hold_changed, dispatch_uid="moderation.on_prize_hold")
    seat_changed.connect(on_seat_changed, dispatch_uid="moderation.on_seat_changed")
    staff_entered_private_table.connect(
        on_staff_entered_private_table, dispatch_uid="moderation.on_staff_entered_private_table"
    )
