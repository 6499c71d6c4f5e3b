"""Every write to the notifications: telling a player, renewing a notice, marking them read."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from notices.models import Notification


def notify(
    user_id: int, kind: str, *, url: str = "", params: dict[str, Any] | None = None
) -> Notification:
    """Tell one player; ``params`` are what the kind's text names (the case, an amount)."""
    return Notification.objects.create(user_id=user_id, kind=kind, url=url, params=params or {})


def notify_each(user_ids: Iterable[int], kind: str, params: dict[str, Any]) -> int:
    """Tell each of these players the same thing (one INSERT); returns how many."""
    made = Notification.objects.bulk_create(
        Notification(user_id=user_id, kind=kind, params=params) for user_id in user_ids
    )
    return len(made)


def renew_or_notify(
    user: User,
    kind: str,
    actor: User,
    *,
    table_name: str = "",
    url: str = "",
    params: dict[str, Any] | None = None,
) -> Notification:
    """Tell ``user`` what ``actor`` did; a notice of this kind from them still unread is
    renewed (brought to the top with the new table and link) rather than repeated. The
    caller holds both users' rows, so two notices at once meet one row (and the unique
    constraint stops a second unread one in any case)."""
    notification, _created = Notification.objects.update_or_create(
        user=user,
        kind=kind,
        actor=actor,
        read_at__isnull=True,
        defaults={
            "table_name": table_name,
            "url": url,
            "params": params or {},
            "created_at": timezone.now(),
        },
    )
    return notification


@transaction.atomic
def mark_notifications_read(user: User) -> int:
    """Every unread notice of the player, read now; returns how many."""
    return Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )
