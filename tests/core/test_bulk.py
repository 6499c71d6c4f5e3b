"""Saving some fields of several rows in one statement changes exactly those fields."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.bulk import update_each
from games import services
from games.models import Table

pytestmark = pytest.mark.django_db


def test_each_row_gets_its_own_values_of_the_fields_named_and_nothing_else(make_user):
    tables = [
        services.create_table(make_user(name), name=f"Bàn {name}", stake=10)
        for name in ("an", "binh", "chi")
    ]
    first, second, untouched = tables
    first.stake, first.start_at, first.rules_overrides = (
        20,
        datetime(2026, 1, 2, 3, 4, tzinfo=UTC),
        {"reveal_seconds": 3},
    )
    second.stake, second.start_at, second.rules_overrides = 30, None, {}
    first.name = second.name = "not saved"
    with CaptureQueriesContext(connection) as queries:
        assert update_each([first, second], ["stake", "start_at", "rules_overrides"]) == 2
    assert len(queries) == 1
    saved = {t.pk: t for t in Table.objects.all()}
    assert (saved[first.pk].stake, saved[second.pk].stake, saved[untouched.pk].stake) == (
        20,
        30,
        10,
    )
    assert saved[first.pk].start_at == datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
    assert saved[second.pk].start_at is None
    assert saved[first.pk].rules_overrides == {"reveal_seconds": 3}
    assert saved[first.pk].name == "Bàn an" and saved[second.pk].name == "Bàn binh"


def test_nothing_to_save_sends_nothing():
    with CaptureQueriesContext(connection) as queries:
        assert update_each([], ["stake"]) == 0
    assert len(queries) == 0
