"""A transaction of another process holding a table's row lock: a stopped or hung worker."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from django.db import connection


@contextmanager
def table_locked_elsewhere(table_id: int) -> Iterator[None]:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("options", None)  # a stuck process's session is not cut short here
    with psycopg.connect(**params) as other:
        other.execute("SELECT id FROM games_table WHERE id = %s FOR UPDATE", [table_id])
        try:
            yield
        finally:
            other.rollback()
