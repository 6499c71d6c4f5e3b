"""core.compiled replays a private part of Django (how ``ModelIterable`` builds model
instances, ``get_related_populators`` included): on a Django upgrade these tests fail
first, and loudly, before a round is played on objects built the old way."""

from __future__ import annotations

import inspect
from typing import Any

import django
import pytest
from django.db.models import Model
from django.db.models.query import ModelIterable, RelatedPopulator, get_related_populators
from django.db.models.sql.compiler import SQLCompiler

from chat import selectors as chat_selectors
from chat import services as chat_services
from games import services
from games.selectors import engine, rounds, tables
from games.services import common
from ledger import selectors as ledger_selectors

READ_FOR = (5, 2)
"""The Django whose ModelIterable.__iter__ core.compiled was written against."""


def test_this_is_the_django_core_compiled_was_read_against() -> None:
    assert django.VERSION[:2] == READ_FOR, (
        f"Django {django.get_version()}: core.compiled replays ModelIterable.__iter__ of "
        f"Django {READ_FOR[0]}.{READ_FOR[1]}. Read the new one, bring Compiled in line (or "
        "drop it for the ORM), then update READ_FOR."
    )


def test_the_private_functions_it_calls_have_the_signatures_it_calls_them_with() -> None:
    assert list(inspect.signature(get_related_populators).parameters) == [
        "klass_info",
        "select",
        "db",
    ]
    assert list(inspect.signature(RelatedPopulator.populate).parameters) == [
        "self",
        "row",
        "from_obj",
    ]
    assert list(inspect.signature(SQLCompiler.get_converters).parameters) == [
        "self",
        "expressions",
    ]


def test_django_still_builds_instances_the_way_compiled_replays_it() -> None:
    steps = {
        ModelIterable.__iter__: (
            "compiler.select",
            "compiler.klass_info",
            "compiler.annotation_col_map",
            'klass_info["select_fields"]',
            "get_related_populators(klass_info, select, db)",
            "model_cls.from_db(",
            "rel_populator.populate(row, obj)",
            "known_related_objects",
        ),
        SQLCompiler.results_iter: (
            "fields = [s[0] for s in self.select[0 : self.col_count]]",
            "converters = self.get_converters(fields)",
            "rows = self.apply_converters(rows, converters)",
            "rows = self.composite_fields_to_tuples(rows, fields)",
        ),
    }
    for function, expected in steps.items():
        source = inspect.getsource(function)
        for step in expected:
            assert step in source, f"{function.__qualname__} no longer does {step!r}"


def _fields(obj: Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _same_objects(compiled: list[Any], orm: list[Any]) -> None:
    assert [type(o) for o in compiled] == [type(o) for o in orm]
    for mine, theirs in zip(compiled, orm, strict=True):
        assert _fields(mine) == _fields(theirs)
        assert mine._state.adding is theirs._state.adding is False
        assert mine._state.db == theirs._state.db
        assert mine._state.fields_cache.keys() == theirs._state.fields_cache.keys()
        for name, related in theirs._state.fields_cache.items():
            assert _fields(mine._state.fields_cache[name]) == _fields(related)


@pytest.mark.django_db
def test_every_compiled_statement_of_a_round_and_a_snapshot_builds_what_the_orm_builds(
    make_user: Any,
) -> None:
    host, guest = make_user("an"), make_user("binh")
    table = services.create_table(host, name="Bàn so sánh", stake=10)
    for user in (host, guest):
        services.sit(user, table.pk)
    round_ = services.start_round(host, table.pk)
    # What a table socket's arrival reads of the chat (chat.selectors.chat_state).
    chat_services.post_message(guest, table.pk, text="chào")
    chat_services.set_chat_settings(host, table.pk, spectators="talk")
    statements = [
        *((lock, (table.pk,)) for lock in common._LOCK_TABLE.values()),
        *(
            (lock, (round_.pk, table.pk) if by_table else (round_.pk,))
            for (_skip, by_table), lock in common._LOCK_ROUND.items()
        ),
        *((players, (round_.pk,)) for players in engine._PLAYERS.values()),
        (rounds._LATEST, (table.pk,)),
        (rounds._LATEST_HEAD, (table.pk,)),
        (tables._SEATED, (table.pk,)),
        (tables._WITH_HOST, (table.pk,)),
        (chat_selectors._SETTINGS, (table.pk,)),
        (chat_selectors._recent(50), (table.pk,)),
    ]
    for statement, args in statements:
        orm = list(statement.build(*args))
        assert orm, "each statement finds rows here, or the comparison proves nothing"
        _same_objects(statement.all(*args), orm)
    # How a round was closed (the ledger's _lock_round reads it at every deal and
    # settlement), once it is: its JSON deltas converted as the ORM converts them.
    services.void_round(round_.pk, reason=services.VoidReason.STAFF)
    orm = list(ledger_selectors._CLOSURE.build(round_.pk))
    assert orm
    _same_objects(ledger_selectors._CLOSURE.all(round_.pk), orm)
