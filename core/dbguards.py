"""Append-only tables, enforced by the database (for use in migrations).

PostgreSQL refuses UPDATE and DELETE on the rows with a trigger; SQLite (development only)
refuses UPDATE (DELETE stays, because Django's test flush deletes rows on SQLite; on
PostgreSQL it truncates, which row triggers do not see).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

PG_FUNCTION = """
CREATE OR REPLACE FUNCTION append_only_refuse() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % refused: this history is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;
"""


def append_only(*tables: str) -> migrations.RunPython:
    """A migration operation that makes ``tables`` append-only."""

    def forward(apps: Any, schema_editor: Any) -> None:
        vendor = schema_editor.connection.vendor
        for table in tables:
            if vendor == "postgresql":
                schema_editor.execute(PG_FUNCTION, params=None)
                schema_editor.execute(
                    f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                    "FOR EACH ROW EXECUTE FUNCTION append_only_refuse();",
                    params=None,
                )
            elif vendor == "sqlite":
                schema_editor.execute(
                    f"CREATE TRIGGER {table}_append_only BEFORE UPDATE ON {table} BEGIN "
                    f"SELECT RAISE(ABORT, 'UPDATE on {table} refused: append-only'); END;",
                    params=None,
                )

    def backward(apps: Any, schema_editor: Any) -> None:
        vendor = schema_editor.connection.vendor
        for table in tables:
            if vendor == "postgresql":
                schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};")
            elif vendor == "sqlite":
                schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only;")

    return migrations.RunPython(forward, backward, elidable=False)
