"""The lobby: the home page of a player, opening a table, and quick join."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Seat, Table

pytestmark = pytest.mark.django_db


def test_the_home_page_of_a_player_is_the_lobby(client, players, table) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    page = client.get("/").content.decode()
    assert table.name in page
    assert 'id="create"' in page


def test_visitors_get_the_welcome_page(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/").content.decode()
    assert reverse("accounts:signup") in page


def test_opening_a_table_keeps_only_the_house_rules_filled_in(client, players) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    response = client.post(
        reverse("games:create_table"),
        {"name": "Bàn mới", "preset": "classic", "stake": "50", "seats": "3",
         "arrange_seconds": "45", "bonus_trips_chi3": "5"},
    )  # fmt: skip
    table = Table.objects.get(name="Bàn mới")
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", kwargs={"table_id": table.pk})
    assert table.rules_overrides == {"arrange_seconds": 45, "bonus": {"trips_chi3": 5}}
    assert table.rules.scoop_one == 2  # classic's own value, untouched


def test_house_rules_out_of_range_are_explained(client, players) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    response = client.post(
        reverse("games:create_table"),
        {"name": "Bàn", "preset": "portal", "stake": "50", "seats": "4", "reveal_seconds": "1"},
    )
    assert response.status_code == 400
    assert not Table.objects.filter(name="Bàn").exists()
    assert 'id="id_reveal_seconds"' in response.content.decode()


def test_quick_join_sits_at_a_table_with_a_free_seat(client, players, table) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[1])
    response = client.post(reverse("games:quick_join"))
    assert response["Location"] == reverse("games:table", kwargs={"table_id": table.pk})
    assert Seat.objects.get(user=players[1]).table == table


def test_quick_join_without_a_table_says_so(client, players) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[1])
    response = client.post(reverse("games:quick_join"), follow=True)
    assert not Seat.objects.filter(user=players[1]).exists()
    assert response.redirect_chain[-1][0] == reverse("games:lobby")
