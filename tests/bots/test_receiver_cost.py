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


def test_a_sit_down_at_a_table_open_to_bots_costs_the_bots_three_queries_and_one_timer(
    person: Any, make_user: Any, bot_table: Any, queued: Any, django_assert_num_queries: Any
) -> None:
    # The table, the round being played, who sits there (one read: it was the seats
    # counted, the people looked for and the ids read, one query each).
    guest = make_user("binh")
    for user in (person, guest):
        services.sit(user, bot_table.pk)
    queued.calls.clear()
    with django_assert_num_queries(3):
        receivers.on_seat_changed(sender=None, table_id=bot_table.pk)
    expected = sorted([person.pk, guest.pk])
    assert queued.named("bots.fill_table") == [
        ((bot_table.pk, expected), {"countdown": bot_table.bot_wait_seconds})
    ]


def test_a_full_table_open_to_bots_schedules_no_bots(
    person: Any, make_user: Any, bot_table: Any, queued: Any
) -> None:
    for user in [person, *(make_user(f"khach{k}") for k in range(3))]:
        services.sit(user, bot_table.pk)
    queued.calls.clear()
    receivers.on_seat_changed(sender=None, table_id=bot_table.pk)
    assert queued.named("bots.fill_table") == []
