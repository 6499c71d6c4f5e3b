"""Who is at the table now: the users with an open socket there (``games.services.presence``)."""

from __future__ import annotations

from django.db import connection

from games.models import Connection


def _online_sql() -> str:
    meta = Connection._meta
    user, table = meta.get_field("user").column, meta.get_field("table").column
    return f'SELECT "{user}" FROM "{meta.db_table}" WHERE "{table}" = %s'


# Every socket's snapshot and every seat change reads it (a storm: every socket of a
# restarted server at once): written once, not compiled by the ORM each time.
_ONLINE_SQL = _online_sql()


def online_users(table_id: int) -> set[int]:
    """Users with an open socket at the table (a row the sweeper has not dropped yet)."""
    with connection.cursor() as cursor:
        cursor.execute(_ONLINE_SQL, [table_id])
        return {user_id for (user_id,) in cursor.fetchall()}
