"""Shared tables: a cap per person, empty tables close, the lobby stays one bounded page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.errors import GameError
from games.models import Round, RoundState, Table
from games.selectors import lobby_page
from moderation import services as moderation
from moderation.models import StaffAction
from tests.moderation.conftest import _staff, play_round
from tests.support.played import deal_for_two, run_timers

pytestmark = pytest.mark.django_db


def _open(host: Any, n: int = 1) -> list[Table]:
    return [services.create_table(host, name=f"Bàn {i}", stake=1) for i in range(n)]


def test_one_person_opens_at_most_three_tables_at_once(players: list[Any]) -> None:
    _open(players[0], 3)
    with pytest.raises(GameError) as refused:
        _open(players[0])
    assert refused.value.code == "too_many_tables"
    assert Table.objects.filter(host=players[0]).count() == 3
    _open(players[1])  # another person is not affected


def test_opening_tables_is_limited_per_hour(players: list[Any], settings: Any) -> None:
    settings.TABLES_CREATED_PER_HOUR = 4
    for table in _open(players[0], 3):
        services.close_table(table.pk)
    _open(players[0])
    with pytest.raises(GameError) as refused:
        _open(players[0])
    assert refused.value.code == "creating_too_fast"


def test_the_lobby_page_refuses_a_fourth_table_with_a_message(
    client: Any, players: list[Any]
) -> None:
    _open(players[0], 3)
    client.force_login(players[0])
    response = client.post(
        reverse("games:create_table"), {"name": "Bàn 4", "preset": "portal", "stake": 1, "seats": 4}
    )
    assert response.status_code == 400
    assert Table.objects.filter(host=players[0]).count() == 3


def test_bots_hosting_the_house_tables_are_not_capped(make_user: Any) -> None:
    from bots import services as bots

    assert len(_open(bots.create_bot().user, 5)) == 5


def test_a_table_left_empty_closes_after_the_delay_and_leaves_the_lobby(
    table: Table, players: list[Any]
) -> None:
    now = timezone.now()
    assert services.close_empty_tables(now) == 0  # first seen empty now
    assert services.close_empty_tables(now + timedelta(minutes=9)) == 0
    assert services.close_empty_tables(now + timedelta(minutes=11)) == 1
    table.refresh_from_db()
    assert not table.is_open
    assert table.pk not in {row["id"] for row in lobby_page()[0]}
    with pytest.raises(GameError):
        services.sit(players[1], table.pk)


def test_a_table_someone_sits_at_is_not_closed(table: Table, players: list[Any]) -> None:
    now = timezone.now()
    services.close_empty_tables(now)
    services.sit(players[1], table.pk)
    assert services.close_empty_tables(now + timedelta(minutes=30)) == 0
    services.stand(players[1])
    assert services.close_empty_tables(now + timedelta(minutes=31)) == 0  # empty again: anew
    assert services.close_empty_tables(now + timedelta(minutes=42)) == 1


def test_closing_a_table_mid_round_voids_nothing_and_frees_the_seats_after(
    table: Table, players: list[Any]
) -> None:
    round_ = deal_for_two(players, table)
    services.close_table(table.pk)
    table.refresh_from_db()
    assert not table.is_open and table.seat_set.count() == 2  # the round plays on
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    run_timers(round_, steps=8)
    assert round_.state == RoundState.SETTLED
    with pytest.raises(GameError):
        services.start_round(players[0], table.pk)
    services.close_empty_tables()
    assert table.seat_set.count() == 0


def test_a_moderator_closes_a_table_and_it_is_audited(
    make_user: Any, table: Table, players: list[Any]
) -> None:
    moderator = _staff(make_user, "mod", moderator=True)
    play_round(players, table)
    moderation.staff_close_table(moderator, table.pk, reason="Bàn lừa đảo")
    table.refresh_from_db()
    assert not table.is_open
    action = StaffAction.objects.get(action="close_table")
    assert (action.actor, action.target_id, action.reason) == (
        moderator,
        str(table.pk),
        "Bàn lừa đảo",
    )
    assert action.before["open"] is True and action.after["open"] is False


def test_the_lobby_is_one_bounded_page_whatever_the_number_of_tables(
    client: Any, players: list[Any], settings: Any
) -> None:
    settings.TABLES_OPEN_PER_USER = settings.TABLES_CREATED_PER_HOUR = 1000
    settings.LOBBY_PAGE_SIZE = 5
    _open(players[0], 12)
    rows, page = lobby_page()
    assert len(rows) == 5 and page == {"page": 1, "pages": 3, "total": 12}
    assert len(lobby_page("²")[0]) == 5 and lobby_page(10**30)[1]["page"] == 3
    client.force_login(players[1])
    html = client.get(reverse("games:lobby") + "?page=3").content.decode()
    assert html.count('class="table-card"') == 2
    assert 'data-testid="lobby-pages"' in html
