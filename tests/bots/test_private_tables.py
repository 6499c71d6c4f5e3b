"""Bots at private tables: only when the host asked for them, never in a held seat."""

import pytest

from bots import services
from games import services as games
from games.services import private

pytestmark = pytest.mark.django_db


def test_bots_fill_a_private_table_whose_host_asked_for_them(person) -> None:
    table = games.create_table(person, name="Nhà có máy", stake=10, allow_bots=True,
                               is_private=True)  # fmt: skip
    games.sit(person, table.pk)
    assert len(services.fill_table(table.pk, [person.pk])) == 3


def test_bots_never_come_to_a_private_table_without_the_hosts_leave(person) -> None:
    table = games.create_table(person, name="Nhà riêng", stake=10, is_private=True)
    games.sit(person, table.pk)
    assert services.fill_table(table.pk, [person.pk]) == []


def test_bots_leave_a_seat_held_for_a_friend_free(person, make_user) -> None:
    friend = make_user("binh")
    table = games.create_table(person, name="Nhà có máy", stake=10, allow_bots=True,
                               is_private=True)  # fmt: skip
    games.sit(person, table.pk)
    private.hold_seat(person, table.pk, friend)
    assert len(services.fill_table(table.pk, [person.pk])) == 2
    games.sit(friend, table.pk)
    assert table.seat_set.count() == 4


def test_quick_play_never_seats_a_player_at_a_private_table(person, make_user) -> None:
    table = games.create_table(person, name="Nhà có máy", stake=10, allow_bots=True,
                               is_private=True)  # fmt: skip
    games.sit(person, table.pk)
    assert services.quick_play(make_user("chi")).pk != table.pk
