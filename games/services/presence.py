"""Who is at the table: open connections and heartbeats."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import (
    Seat,
    Table,
)
from games.selectors import (
    active_round,
)
from games.services.common import bump, lock_table, log, table_event

AWAY_AFTER = timedelta(seconds=30)
"""A seated player with no open connection for this long is stood up at the next deal."""


@transaction.atomic
def connected(user: User, table_id: int) -> None:
    """A websocket of this user opened at this table (a seat, if any, is back)."""
    table = lock_table(table_id)
    seat = Seat.objects.filter(user=user, table=table).first()
    if seat is None:
        return
    seat.connections += 1
    seat.last_seen_at = timezone.now()
    seat.save(update_fields=["connections", "last_seen_at"])
    if seat.connections == 1:
        bump(table)
        table_event(table, {"type": "presence", "position": seat.position, "online": True})
        log_presence(table, user, "reconnect")


@transaction.atomic
def disconnected(user: User, table_id: int) -> None:
    """A websocket closed. Not a leave: the seat and the round wait for the player."""
    table = lock_table(table_id)
    seat = Seat.objects.filter(user=user, table=table).first()
    if seat is None:
        return
    seat.connections = max(0, seat.connections - 1)
    seat.last_seen_at = timezone.now()
    seat.save(update_fields=["connections", "last_seen_at"])
    if seat.connections == 0:
        bump(table)
        table_event(table, {"type": "presence", "position": seat.position, "online": False})
        log_presence(table, user, "disconnect")


def log_presence(table: Table, user: User, kind: str) -> None:
    """Connections that come and go during a round are part of its history (disputes)."""
    round_ = active_round(table)
    if round_ is not None:
        player = round_.players.filter(user=user).first()
        if player is not None:
            log(round_, kind, {"position": player.position}, user)


def heard_from(user: User, table_id: int) -> None:
    """A heartbeat: the player is still here (no event, no version change)."""
    Seat.objects.filter(user=user, table_id=table_id).update(last_seen_at=timezone.now())


def is_away(seat: Seat, now: datetime) -> bool:
    if seat.user.is_bot:
        return False  # bots have no websocket and are always present
    return seat.connections == 0 and seat.last_seen_at < now - AWAY_AFTER
