"""The arena pages: the create form, the arena's page with join/pause/resume, its tables
(only for their players), and the arena socket that marks its entrant present."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import override_settings
from django.urls import reverse

from games.models import Seat
from ledger import selectors as ledger_selectors
from tests.support.arenas import tournament_socket
from tournaments.arena import services as arena
from tournaments.arena.consumers import ArenaConsumer
from tournaments.models import ArenaSocket, Entry, Kind, State, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_create_form_opens_an_arena_and_its_creator_joins(client: Any, players: Any) -> None:
    client.force_login(players[0])
    assert "new-arena" in client.get(reverse("tournaments:list")).content.decode()
    response = client.post(
        reverse("tournaments:arena_new"),
        {"name": "Đấu trường tối", "minutes": 5, "buy_in": 200, "players": 8, "preset": "portal"},
    )
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{t.pk}/"
    assert (t.kind, t.minutes, t.buy_in, t.players) == (Kind.ARENA, 5, 200, 8)
    assert ledger_selectors.balance(players[0]) == 9_800
    page = client.get(response["Location"]).content.decode()
    assert 'data-testid="standings"' in page and "Đấu trường tối" in page


def test_an_arena_is_listed_with_the_arenas_not_under_the_sit_and_go_heading(
    client: Any, players: Any
) -> None:
    client.force_login(players[0])
    client.post(
        reverse("tournaments:arena_new"),
        {"name": "Đấu trường sáng", "minutes": 5, "buy_in": 200, "players": 8, "preset": "portal"},
    )
    page = client.get(reverse("tournaments:list"))
    assert [t.name for t in page.context["tournaments"]] == []  # the sit-and-go list
    assert 'data-testid="tournament-list"' not in page.content.decode()


def test_a_too_long_arena_is_refused_with_a_message(client: Any, players: Any) -> None:
    client.force_login(players[0])
    response = client.post(
        reverse("tournaments:arena_new"),
        {"name": "x", "minutes": 90, "buy_in": 0, "players": 8, "preset": "portal"},
    )
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "60" in response.content.decode()


@override_settings(ARENA_PAIR_WAIT_SECONDS=0)
def test_join_pause_and_resume_from_the_arena_page(client: Any, players: Any) -> None:
    t = arena.create_arena(players[0], name="Trang", minutes=3, buy_in=100)
    client.force_login(players[1])
    client.post(reverse("tournaments:arena_join", args=[t.pk]))
    assert ledger_selectors.balance(players[1]) == 9_900
    arena.start_now(players[0], t.pk)
    client.post(reverse("tournaments:arena_pause", args=[t.pk]))
    assert Entry.objects.get(tournament=t, user=players[1]).paused
    client.post(reverse("tournaments:arena_resume", args=[t.pk]))
    assert not Entry.objects.get(tournament=t, user=players[1]).paused


@override_settings(ARENA_PAIR_WAIT_SECONDS=0)
def test_an_arena_table_page_sends_an_entrant_not_seated_there_to_the_arena_page(
    client: Any, players: Any
) -> None:
    import uuid

    t = arena.create_arena(players[0], name="Kín", minutes=3, buy_in=0)
    for p in players[1:3]:
        arena.join(p, t.pk)
    for p in players[:2]:
        arena.socket_opened(p, t.pk, uuid.uuid4())
    arena.start_now(players[0], t.pk)
    table_id = Seat.objects.get(user=players[0]).table_id
    client.force_login(players[1])
    page = client.get(reverse("games:table", args=[table_id]))
    assert page.status_code == 200 and 'data-testid="arena-info"' in page.content.decode()
    client.force_login(players[2])  # an entrant who may still be dealt this board
    refused = client.get(reverse("games:table", args=[table_id]))
    assert refused.status_code == 302 and refused["Location"] == f"/tournaments/{t.pk}/"
    arena_page = client.get(refused["Location"]).content.decode()
    assert "bàn này không phải của bạn" in arena_page
    assert 'data-testid="arena-info"' not in arena_page


@override_settings(ARENA_PAIR_WAIT_SECONDS=0)
def test_a_player_whose_board_closed_at_the_end_before_its_deal_lands_on_the_arena_page(
    client: Any, players: Any
) -> None:
    """Paired in the arena's last seconds, their page opening the board as the time runs
    out: the board closes undealt, and the page they open is the arena's, not a dead end."""
    import uuid
    from datetime import timedelta

    from django.utils import timezone

    t = arena.create_arena(players[0], name="Hết giờ", minutes=3, buy_in=0)
    arena.join(players[1], t.pk)
    for p in players[:2]:
        arena.socket_opened(p, t.pk, uuid.uuid4())
    arena.start_now(players[0], t.pk)
    table_id = Seat.objects.get(user=players[1]).table_id
    Tournament.objects.filter(pk=t.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert arena.end(t.pk)  # the time is up: the undealt board closes, the arena finishes
    assert not Seat.objects.filter(user=players[1]).exists()
    client.force_login(players[1])
    opened = client.get(reverse("games:table", args=[table_id]), follow=True)
    assert opened.redirect_chain == [(f"/tournaments/{t.pk}/", 302)]
    assert Tournament.objects.get(pk=t.pk).state == State.FINISHED


def test_the_arena_socket_sends_the_state_and_marks_its_entrant_present(players: Any) -> None:
    t = arena.create_arena(players[0], name="Sóng", minutes=3, buy_in=0)

    async def receive():  # type: ignore[no-untyped-def]
        communicator = tournament_socket(
            ArenaConsumer, f"/ws/tournaments/{t.pk}/arena/", players[0], t
        )
        connected, _sub = await communicator.connect()
        assert connected
        message = await communicator.receive_json_from(timeout=5)
        present = await ArenaSocket.objects.filter(entry__user=players[0]).acount()
        await communicator.disconnect()
        return message, present

    message, present = async_to_sync(receive)()
    assert message["type"] == "tournament" and message["arena"] is True
    assert (
        message["state"] == State.REGISTERING and message["standings"][0]["user"] == players[0].pk
    )
    assert present == 1
    assert not ArenaSocket.objects.exists()  # closed: no longer present
