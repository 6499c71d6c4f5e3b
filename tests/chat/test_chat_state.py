"""The chat state a table socket gets with its arrival: read once each, right for the
viewer (chat.selectors.chat_state)."""

from __future__ import annotations

from typing import Any

import pytest

from chat import selectors, services
from games import services as games
from games.models import Table
from games.selectors.tables import seats_with_users, table_with_host
from social.services import block_user

pytestmark = pytest.mark.django_db


def test_a_seated_hosts_chat_state_shows_what_they_hid_and_only_the_messages_they_may_see(
    players: list[Any], table: Table
) -> None:
    an, binh, chi, dung = players
    for spectator in (chi, dung):
        games.sit(spectator, table.pk)
    services.post_message(binh, table.pk, text="xin chào")
    services.post_message(chi, table.pk, text="cố lên")
    services.post_message(dung, table.pk, text="hi")
    services.mute_player(an, chi.pk)
    block_user(an, dung)

    state = selectors.chat_state(an, table.pk, "vi")

    assert state["host"] is True
    assert state["post"] == ["players"]
    assert state["muted"] == [chi.pk]
    assert state["hidden"] == sorted([chi.pk, dung.pk])
    assert [m["text"] for m in state["history"]] == ["xin chào"]


def test_a_spectators_chat_state_says_they_do_not_host_nor_write_with_the_players(
    players: list[Any], table: Table
) -> None:
    state = selectors.chat_state(players[3], table.pk, "en")
    assert state["host"] is False
    assert "players" not in state["post"]
    assert state["muted"] == [] and state["hidden"] == []


def test_the_chat_state_takes_five_queries_however_much_was_said_and_hidden(
    players: list[Any], table: Table, django_assert_num_queries: Any
) -> None:
    an, binh, chi, dung = players
    for n in range(5):
        services.post_message(binh, table.pk, text=f"lời {n}")
    services.mute_player(an, chi.pk)
    block_user(an, dung)
    # The table, its chat settings, its seats (the host and where the viewer may write),
    # the viewer's mutes and blocks (one statement), and the history without what they hid.
    with django_assert_num_queries(5):
        selectors.chat_state(an, table.pk, "vi")


def test_a_viewer_who_hides_nobody_gets_the_latest_messages_oldest_first_with_names(
    players: list[Any], table: Table, django_assert_num_queries: Any, settings: Any
) -> None:
    an, binh = players[:2]
    settings.CHAT_HISTORY = 3
    for n in range(5):
        services.post_message(binh if n % 2 else an, table.pk, text=f"lời {n}")
    with django_assert_num_queries(5):
        state = selectors.chat_state(an, table.pk, "vi")
    assert [(m["text"], m["name"]) for m in state["history"]] == [
        ("lời 2", an.shown_name),
        ("lời 3", binh.shown_name),
        ("lời 4", an.shown_name),
    ]
    assert state["muted"] == [] and state["hidden"] == []


def test_with_a_sockets_arrival_the_chat_state_reuses_the_snapshots_table_and_seats(
    players: list[Any], table: Table, django_assert_num_queries: Any
) -> None:
    """A storm's 800 arrivals each read the table and its seats for the snapshot: the
    chat state read in the same thread call takes them from it, and says the same."""
    an, binh, chi, _dung = players
    games.sit(chi, table.pk)
    services.post_message(binh, table.pk, text="xin chào")
    services.mute_player(an, chi.pk)
    fresh = table_with_host(table.pk)
    seated = seats_with_users(fresh)
    with django_assert_num_queries(3):  # the chat settings, the mutes and blocks, the history
        state = selectors.chat_state(an, table.pk, "vi", table=fresh, seated=seated)
    assert state == selectors.chat_state(an, table.pk, "vi")
    assert state["host"] is True and state["muted"] == [chi.pk]
