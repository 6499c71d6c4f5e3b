"""Deal pacing: tables whose rounds end together deal one a turn, not all at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import transaction

from games import services
from games.models import Table
from games.services.countdown import set_start

pytestmark = pytest.mark.django_db(transaction=True)


def _tables(hosts: list[Any], n: int) -> list[Table]:
    return [
        services.create_table(hosts[i % len(hosts)], name=f"Bàn {i}", stake=10) for i in range(n)
    ]


def _start(table: Table, when: datetime) -> datetime:
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        set_start(locked, when)
    table.refresh_from_db()
    assert table.start_at is not None
    return table.start_at


def test_tables_due_at_once_deal_a_turn_at_a_time_when_the_site_paces_its_deals(
    players: list[Any], settings: Any
) -> None:
    settings.DEALS_PER_SECOND = 8  # turns of 250 ms with room for 2
    when = datetime(2030, 1, 1, 12, 0, 0, 30_000, tzinfo=UTC)
    starts = [_start(t, when) for t in _tables(players, 5)]
    turn = timedelta(milliseconds=250)
    after = datetime(2030, 1, 1, 12, 0, 0, tzinfo=UTC) + turn  # the turn after when's
    assert starts == [when, when, after, after, after + turn]


def test_a_site_that_does_not_pace_deals_every_table_on_time(
    players: list[Any], settings: Any
) -> None:
    settings.DEALS_PER_SECOND = 0
    when = datetime(2030, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert {_start(t, when) for t in _tables(players, 3)} == {when}
