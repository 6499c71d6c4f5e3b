"""Saving a few fields of several rows in one statement, cheaply."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections, router
from django.db.models import Model


def update_each(objs: Sequence[Model], fields: Sequence[str]) -> int:
    """Save ``fields`` of every object in one UPDATE, as ``QuerySet.bulk_update`` does.

    On PostgreSQL this is ``UPDATE … FROM (VALUES …)``: bulk_update builds a ``CASE WHEN``
    expression per field and row, and compiling it cost more CPU than anything else in a
    round's settlement (docs/deploy.md, "The cost of one round"). Like bulk_update, it
    runs no ``pre_save`` (an ``auto_now`` field is saved as the object holds it) and sends
    no signal. Returns the number of rows updated.
    """
    if not objs:
        return 0
    model = type(objs[0])
    connection = connections[router.db_for_write(model)]
    if connection.vendor != "postgresql":
        return model._base_manager.bulk_update(objs, fields)
    with connection.cursor() as cursor:
        cursor.execute(*update_statement(connection, model, fields, objs))
        return int(cursor.rowcount)


def update_statement(
    connection: Any, model: type[Model], fields: Sequence[str], objs: Sequence[Model]
) -> tuple[str, list[Any]]:
    """The ``UPDATE … FROM (VALUES …)`` of ``update_each`` (PostgreSQL), as SQL and
    parameters: also a part of a larger statement (games.services.writes)."""
    meta = model._meta
    pk: Any = meta.pk
    targets: list[Any] = [meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    # The VALUES list's columns take their types from the literals (text for a string or a
    # date), so each is cast to its column's type where it is assigned.
    assignments = ", ".join(
        f"{quote(f.column)} = v.{quote(f.column)}::{f.db_type(connection)}" for f in targets
    )
    row = "(" + ", ".join(["%s"] * (len(targets) + 1)) + ")"
    names = ", ".join(quote(f.column) for f in [pk, *targets])
    params = [
        f.get_db_prep_save(getattr(obj, f.attname), connection)
        for obj in objs
        for f in [pk, *targets]
    ]
    table = quote(meta.db_table)
    return (
        f"UPDATE {table} SET {assignments} FROM (VALUES {', '.join([row] * len(objs))})"
        f" AS v({names}) WHERE {table}.{quote(pk.column)} = v.{quote(pk.column)}",
        params,
    )
