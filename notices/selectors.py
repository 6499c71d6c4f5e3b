"""Reads of the notifications: a player's, newest first, and how many are unread."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from accounts.models import User
from notices.models import Notification


def notifications_of(user: User, *, hidden_actors: Any = ()) -> QuerySet[Notification]:
    """The player's notices, newest first, none caused by ``hidden_actors`` (ids, or a
    query of them: social passes the players this one blocked)."""
    return (
        Notification.objects.filter(user=user)
        .exclude(actor_id__in=hidden_actors)
        .select_related("actor")
    )


def told(kind: str, **params: Any) -> set[int]:
    """The players already told ``kind`` with these params (a notice sent once each)."""
    lookups = {f"params__{key}": value for key, value in params.items()}
    return set(Notification.objects.filter(kind=kind, **lookups).values_list("user_id", flat=True))


def unread_count(user: User, *, hidden_actors: Any = ()) -> int:
    return notifications_of(user, hidden_actors=hidden_actors).filter(read_at__isnull=True).count()
