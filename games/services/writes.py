"""A step's last writes, sent to PostgreSQL as one statement.

Every step of a round ends with writes that nothing later in the step reads back from the
database: a player's arrangement or result, the round's phase and deadline, the players of
a deal, the round log's entries, the table's new version. One by one they were a round
trip each (docs/deploy.md, "The cost of one round"). A step collects them in a ``Writes``
(``one_statement``) and sends them together when it ends, still inside its transaction
and under its locks: on PostgreSQL as one statement whose data-modifying ``WITH`` parts
run each write, elsewhere (SQLite) one by one, as before.

What this asks of the writes it carries: no two change the same row (each object's
fields are merged into one UPDATE), none reads what another writes (PostgreSQL runs them
on one snapshot; the round log's numbering reads only entries of earlier statements, so a
step logs once), and nothing in the step reads them back before the step ends.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from django.db import connections, router
from django.db.models import Model
from django.db.models.sql import InsertQuery
from django.utils import timezone

from core.bulk import update_each, update_statement

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Round

LogEntry = tuple[str, dict[str, Any], "User | None"]


class Writes:
    """The writes of one step, in the order they were asked for (see the module docstring)."""

    def __init__(self) -> None:
        self._updates: dict[tuple[type[Model], Any], tuple[Model, list[str]]] = {}
        self._inserts: list[list[Model]] = []
        self._log: tuple[Round, list[LogEntry], bool] | None = None

    def update(self, objs: Sequence[Model], fields: Sequence[str]) -> None:
        """Save ``fields`` of each object, with the values the object holds when the step
        ends (like ``core.bulk.update_each``: no ``pre_save``, no signal)."""
        for obj in objs:
            key = (type(obj), obj.pk)
            _obj, saved = self._updates.setdefault(key, (obj, []))
            saved.extend(name for name in fields if name not in saved)

    def insert(self, objs: Sequence[Model]) -> None:
        """Insert new rows whose ids nothing in the step needs (``bulk_create``, no ids)."""
        if objs:
            self._inserts.append(list(objs))

    def log(self, round_: Round, entries: list[LogEntry], *, first: bool = False) -> None:
        """Append entries to the round log (``games.services.common.log_many``)."""
        if self._log is None:
            self._log = (round_, list(entries), first)
            return
        logged, earlier, _first = self._log
        if logged.pk != round_.pk:
            raise ValueError("one step writes one round's log")
        earlier.extend(entries)

    def run(self) -> None:
        """Send every write: one statement on PostgreSQL."""
        objs = [obj for obj, _fields in self._updates.values()]
        objs += [obj for batch in self._inserts for obj in batch]
        if self._log is not None:
            objs.append(self._log[0])
        if not objs:
            return
        connection = connections[router.db_for_write(type(objs[0]))]
        if connection.vendor != "postgresql":
            self._run_one_by_one()
            return
        statements = [_insert(connection, batch) for batch in self._inserts]
        for model, fields, group in self._update_groups():
            statements.append(update_statement(connection, model, fields, group))
        if self._log is not None:
            statements.append(log_statement(*self._log[:2]))
        # Every write but the last is a part of the WITH: PostgreSQL runs each exactly once.
        *parts, (sql, params) = statements
        if parts:
            names = ", ".join(f"w{i} AS ({part})" for i, (part, _params) in enumerate(parts))
            sql = f"WITH {names} {sql}"
            params = [param for _part, part_params in parts for param in part_params] + params
        with connection.cursor() as cursor:
            cursor.execute(sql, params)

    def _update_groups(self) -> Iterator[tuple[type[Model], tuple[str, ...], list[Model]]]:
        """The updates, one group (one UPDATE) per model and set of fields."""
        groups: dict[tuple[type[Model], tuple[str, ...]], list[Model]] = {}
        for (model, _pk), (obj, saved) in self._updates.items():
            groups.setdefault((model, tuple(saved)), []).append(obj)
        for (model, fields), group in groups.items():
            yield model, fields, group

    def _run_one_by_one(self) -> None:
        from games.services.common import log_many

        for batch in self._inserts:
            type(batch[0])._base_manager.bulk_create(batch)
        for _model, fields, group in self._update_groups():
            update_each(group, fields)
        if self._log is not None:
            round_, entries, first = self._log
            log_many(round_, entries, first=first)


@contextmanager
def one_statement(into: Writes | None = None) -> Iterator[Writes]:
    """The writes of the block, sent when it ends (not if it raises: nothing to undo).

    ``into``: a step's writes already open (a service called inside that step): the block
    adds to them, and the step sends them all when it ends."""
    if into is not None:
        yield into
        return
    writes = Writes()
    yield writes
    writes.run()


def _insert(connection: Any, objs: list[Model]) -> tuple[str, list[Any]]:
    # As bulk_create inserts objects without ids: every concrete column but the id.
    fields = [f for f in objs[0]._meta.concrete_fields if not f.primary_key and not f.generated]
    query = InsertQuery(type(objs[0]))
    query.insert_values(fields, objs)
    [(sql, params)] = query.get_compiler(connection=connection).as_sql()
    return sql, list(params)


# The round log's INSERT (games.services.common.log_many): the numbers are computed inside
# it, after the last entry of the round's earlier statements.
_LOG_SQL = """
    INSERT INTO games_roundevent (round_id, seq, kind, user_id, data, created_at)
    SELECT %s, last.seq + entry.n, entry.kind, entry.user_id, entry.data, %s
    FROM unnest(%s::text[], %s::bigint[], %s::jsonb[])
        WITH ORDINALITY AS entry (kind, user_id, data, n)
    CROSS JOIN (
        SELECT COALESCE(MAX(seq), 0) AS seq FROM games_roundevent WHERE round_id = %s
    ) AS last
"""


def log_statement(round_: Round, entries: Sequence[LogEntry]) -> tuple[str, list[Any]]:
    """The round log's INSERT of ``entries`` (PostgreSQL), as SQL and parameters."""
    return _LOG_SQL, [
        round_.pk,
        timezone.now(),
        [kind for kind, _data, _user in entries],
        [user.pk if user is not None else None for _kind, _data, user in entries],
        [json.dumps(data) for _kind, data, _user in entries],
        round_.pk,
    ]
