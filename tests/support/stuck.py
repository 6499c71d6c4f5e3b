"""A transaction of another process holding a table's row lock: a stopped or hung worker."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from django.db import connection


@contextmanager
def table_locked_elsewhere(table_id: int, *, app_limits: bool = False) -> Iterator[None]:
    """Hold the table's lock from another session until the block ends. With
    ``app_limits`` the session has the app's limits (DB_*_MS), as a stopped worker has."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    if not app_limits:
        params.pop("options", None)
    other = psycopg.connect(**params)
    try:
        other.execute("SELECT id FROM games_table WHERE id = %s FOR UPDATE", [table_id])
        yield
    finally:
        try:
            other.rollback()
            other.close()
        except psycopg.Error:
            pass  # the server ended the session meanwhile
