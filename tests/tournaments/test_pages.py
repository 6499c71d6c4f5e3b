"""The tournament pages: the list with its create form, a tournament's page, its actions,
the table page of a tournament table, and the tournament socket."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse

from ledger import selectors as ledger_selectors
from tests.support.arenas import tournament_socket
from tournaments.consumers import TournamentConsumer
from tournaments.models import State, Tournament
from tournaments.sitandgo import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_create_form_opens_a_sit_and_go_and_registers_its_creator(client, players):
    client.force_login(players[0])
    response = client.post(
        reverse("tournaments:list"),
        {"name": "Tối nay", "players": 5, "buy_in": 250, "allow_bots": "on"},
    )
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{t.pk}/"
    assert (t.players, t.buy_in, t.allow_bots) == (5, 250, True)
    assert ledger_selectors.balance(players[0]) == 9_750
    page = client.get(reverse("tournaments:list"))
    assert "Tối nay" in page.content.decode()


def test_a_bad_size_is_refused_with_a_message_and_nothing_created(client, players):
    client.force_login(players[0])
    response = client.post(reverse("tournaments:list"), {"name": "x", "players": 17, "buy_in": 0})
    assert response.status_code == 200
    assert not Tournament.objects.exists()
    assert "16" in response.content.decode()


def test_register_and_withdraw_from_the_tournament_page(client, players):
    t = services.create_sit_and_go(players[0], name="Trang", players=4, buy_in=100)
    client.force_login(players[1])
    page = client.get(reverse("tournaments:detail", args=[t.pk]))
    assert page.status_code == 200 and 'data-testid="levels"' in page.content.decode()
    client.post(reverse("tournaments:register", args=[t.pk]))
    assert ledger_selectors.balance(players[1]) == 9_900
    client.post(reverse("tournaments:unregister", args=[t.pk]))
    assert ledger_selectors.balance(players[1]) == 10_000


def test_a_tournament_table_page_shows_the_tournament(client, players):
    t = services.create_sit_and_go(players[0], name="Bàn giải", players=4, buy_in=0)
    for p in players[1:]:
        services.register(p, t.pk)
    table = t.tables.get().table
    client.force_login(players[1])
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-testid="tournament-info"' in page
    assert "chip" in page


def test_the_tournament_socket_sends_the_state_with_its_version(players):
    t = services.create_sit_and_go(players[0], name="Sóng", players=4, buy_in=0)

    async def receive():  # type: ignore[no-untyped-def]
        communicator = tournament_socket(
            TournamentConsumer, f"/ws/tournaments/{t.pk}/", players[0], t
        )
        connected, _sub = await communicator.connect()
        assert connected
        message = await communicator.receive_json_from(timeout=5)
        await communicator.disconnect()
        return message

    message = async_to_sync(receive)()
    t.refresh_from_db()
    assert message["type"] == "tournament" and message["version"] == t.version
    assert message["state"] == State.REGISTERING and message["registered"] == 1
