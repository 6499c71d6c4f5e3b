"""Pushes to browsers. Services call these; the message leaves only after the commit.

Groups: ``lobby`` (table list), ``table-<id>`` (public events of a table: seats, round
progress, reveals), ``table-<id>-user-<uid>`` (one player's private events at that table:
their own cards). Spectators join only the public group. Every table event carries the
table ``version`` it produced.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

LOBBY = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def private_group(table_id: int, user_id: int) -> str:
    return f"table-{table_id}-user-{user_id}"


def _send(group: str, payload: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": "game.event", "payload": payload})
    except Exception:
        # The state is committed; a client that misses this event sees a version gap and
        # asks for a snapshot. Never let a broadcast failure surface as a failed action.
        logger.exception("broadcast to %s failed", group)


def publish(group: str, payload: dict[str, Any]) -> None:
    """Send ``payload`` to ``group`` once the current transaction commits (now if none)."""
    transaction.on_commit(lambda: _send(group, payload))


def to_table(table_id: int, payload: dict[str, Any]) -> None:
    publish(table_group(table_id), payload)


def to_player(table_id: int, user_id: int, payload: dict[str, Any]) -> None:
    publish(private_group(table_id, user_id), payload)


def to_lobby(payload: dict[str, Any]) -> None:
    publish(LOBBY, payload)
