"""What the bots' listeners cost a table that has no bots: they hear every round."""

from __future__ import annotations

from typing import Any

import pytest

from bots import receivers
from bots import services as bot_services
from games import services

pytestmark = pytest.mark.django_db


def test_a_round_dealt_without_bots_costs_the_bots_no_query(
    person: Any, queued: Any, django_assert_num_queries: Any
) -> None:
    table = services.create_table(person, name="Bàn người", stake=10)
    with django_assert_num_queries(0):
        receivers.on_round_dealt(sender=None, table_id=table.pk, round_id=1, bot_ids=[])
    assert queued.calls == []


def test_a_round_settled_at_a_table_without_bots_costs_the_bots_one_query(
    person: Any, queued: Any, django_assert_num_queries: Any
) -> None:
    table = services.create_table(person, name="Bàn người", stake=10)
    with django_assert_num_queries(1):
        receivers.on_round_settled(sender=None, table_id=table.pk, round_id=1)
    assert queued.calls == []


def test_a_round_settled_at_a_table_with_bots_sends_them_to_tidy_up(
    person: Any, bot_table: Any, queued: Any
) -> None:
    services.sit(person, bot_table.pk)
    bot_services.fill_table(bot_table.pk, [person.pk])
    queued.calls.clear()  # what the sits scheduled
    receivers.on_round_settled(sender=None, table_id=bot_table.pk, round_id=1)
    assert queued.named("bots.tidy_table") == [((bot_table.pk,), {})]
