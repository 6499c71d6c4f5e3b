"""Who is at the table now: the users with an open socket there (``games.services.presence``)."""

from __future__ import annotations

from games.models import Connection


def online_users(table_id: int) -> set[int]:
    """Users with an open socket at the table (a row the sweeper has not dropped yet)."""
    return set(Connection.objects.filter(table_id=table_id).values_list("user_id", flat=True))
