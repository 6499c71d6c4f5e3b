"""Querysets compiled to SQL once, then run again and again with other values.

For the few statements every step of every round runs (the table and round locks, the
round's players): Django compiles a queryset to SQL on every evaluation, and for these
short statements that costs the server more CPU than PostgreSQL spends running them
(profiled in docs/deploy.md, "The cost of one round"). A ``Compiled`` query is written as
an ordinary queryset of integer arguments (ids); its first run compiles it with marker
values in place of them, and every run after that sends the same SQL with the arguments in
their place, and builds the model instances (``select_related`` ones included) as Django
would.

Only what the ORM does for a plain model queryset is supported: no ``values()``, no
annotations, no prefetching; the compile refuses a queryset it cannot replay.

It leans on Django's private API: ``get_related_populators`` and the steps of
``ModelIterable.__iter__`` and ``SQLCompiler.results_iter`` it replays, as Django 5.2 has
them. It is kept only with tests/core/test_compiled_on_this_django.py, which fails on any
other Django (the version, those functions' signatures and steps), and checks that every
compiled statement of a round builds the objects the ORM builds: on an upgrade, read
Django's new code and bring this in line, or drop it for the plain ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators  # type: ignore[attr-defined]
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)

_MARKS = (30_011, 30_503)
"""Where the arguments' marker values start in the two compiles (see ``_slots``): within the
range of every integer field, so no lookup treats one as out of range and drops it."""


@dataclass(frozen=True)
class _Plan:
    model: Any  # type[M] of the Compiled that made it
    sql: str
    params: tuple[Any, ...]
    slots: tuple[int | None, ...]  # per parameter: which argument goes there, or None
    locks: bool  # SELECT … FOR UPDATE: only inside a transaction, as Django checks
    init_list: list[str]
    start: int
    end: int
    converters: list[tuple[int, list[Any], Any]]
    populators: list[Any]


class Compiled(Generic[M]):
    """``build(*args)`` returns the queryset; ``Compiled(build).all(*args)`` runs it."""

    def __init__(self, build: Callable[..., QuerySet[M]], arity: int = 1) -> None:
        self.build = build
        self.arity = arity
        self._plans: dict[str, _Plan] = {}

    def all(self, *args: Any, using: str = DEFAULT_DB_ALIAS) -> list[M]:
        """The instances of the queryset ``build(*args)`` would return."""
        if len(args) != self.arity:
            raise TypeError(f"expected {self.arity} arguments, got {len(args)}")
        plan = self._plans.get(using) or self._compile(using)
        connection = connections[using]
        if plan.locks and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        # An argument takes the type Django gave its marker (psycopg's Int4 for a lookup
        # on an IntegerField, so PostgreSQL sees the same statement).
        params = [
            p if slot is None else type(p)(args[slot])
            for p, slot in zip(plan.params, plan.slots, strict=True)
        ]
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchall()
        model = plan.model
        objects: list[M] = []
        for row in rows:
            if plan.converters:
                row = list(row)
                for pos, converters, expression in plan.converters:
                    for convert in converters:
                        row[pos] = convert(row[pos], expression, connection)
            obj = model.from_db(using, plan.init_list, row[plan.start : plan.end])
            for populator in plan.populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects

    def first(self, *args: Any, using: str = DEFAULT_DB_ALIAS) -> M | None:
        """The first row's instance (the queryset orders and limits itself), or None."""
        found = self.all(*args, using=using)
        return found[0] if found else None

    def _compile(self, using: str) -> _Plan:
        queryset = self.build(*(_MARKS[0] + i for i in range(self.arity)))
        query = queryset.query
        if (
            queryset._iterable_class is not ModelIterable
            or query.annotation_select
            or queryset._prefetch_related_lookups  # type: ignore[attr-defined]
            or queryset._known_related_objects  # type: ignore[attr-defined]
        ):
            raise ValueError("Compiled takes a plain model queryset")
        compiler = query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = self._slots(using, sql, params)
        select, klass_info = compiler.select, compiler.klass_info
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        converters = compiler.get_converters([s[0] for s in select[: compiler.col_count]])
        plan = _Plan(
            model=queryset.model,
            sql=sql,
            params=tuple(params),
            slots=slots,
            locks=bool(query.select_for_update)
            and compiler.connection.features.has_select_for_update,
            init_list=[s[0].target.attname for s in select[start:end]],
            start=start,
            end=end,
            converters=[(pos, convs, expr) for pos, (convs, expr) in converters.items()],
            populators=get_related_populators(klass_info, select, using),
        )
        self._plans[using] = plan
        return plan

    def _slots(self, using: str, sql: str, params: Sequence[Any]) -> tuple[int | None, ...]:
        """Which argument goes in each parameter: compiled a second time with other marker
        values, the parameters that change with the markers are the arguments', and a
        constant of the query that happens to equal a marker is not taken for one."""
        other = self.build(*(_MARKS[1] + i for i in range(self.arity)))
        other_sql, other_params = other.query.get_compiler(using=using).as_sql()
        slots = []
        for first, second in zip(params, other_params, strict=True):
            k = first - _MARKS[0] if _integer(first) else -1
            found = 0 <= k < self.arity and _integer(second) and second - _MARKS[1] == k
            slots.append(k if found else None)
        if other_sql != sql or sorted(k for k in slots if k is not None) != list(range(self.arity)):
            raise ValueError(
                "every argument must be an integer the SQL takes as one parameter, once"
            )
        return tuple(slots)


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
