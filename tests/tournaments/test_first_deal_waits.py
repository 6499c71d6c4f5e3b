"""A player's first deal at a tournament table waits for them (docs/tournaments.md, "Your
table starts"): until everyone newly seated there has the table open, or
TOURNAMENT_JOIN_SECONDS at most, a countdown their tournament page shows; and the standings
say what they mean before the start and rank everyone still in."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from games import services as games
from games.models import Table
from tests.games.conftest import fixed_boards  # noqa: F401
from tournaments import selectors
from tournaments.arena import services as arena
from tournaments.sitandgo import services as sitandgo

from .conftest import play_round

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def _started_sit_and_go(players: list[Any]) -> Any:
    t = sitandgo.create_sit_and_go(players[0], name="Chờ người", players=4, buy_in=100)
    for p in players[1:]:
        sitandgo.register(p, t.pk)
    t.refresh_from_db()
    return t


def _tables(t: Any) -> list[Table]:
    return [link.table for link in t.tables.select_related("table").order_by("number")]


def test_a_sit_and_go_table_does_not_deal_before_its_players_could_have_opened_it(
    players: list[Any],
) -> None:
    before = timezone.now()
    t = _started_sit_and_go(players)
    (table,) = _tables(t)
    assert table.start_at is not None
    # Not the tables' own 5 s countdown: the first deal waits for who is not there yet.
    assert table.start_at >= before + timedelta(seconds=settings.TOURNAMENT_JOIN_SECONDS)
    assert games.start_round_when_due(table.pk, table.start_at.isoformat()) is None


def test_the_first_deal_comes_after_the_short_countdown_once_everyone_has_the_table_open(
    players: list[Any],
) -> None:
    t = _started_sit_and_go(players)
    (table,) = _tables(t)
    waiting_until = table.start_at
    for p in players[:3]:
        games.connected(p, table.pk, uuid.uuid4())
    table.refresh_from_db()
    assert table.start_at == waiting_until  # one of them is still on their way
    games.connected(players[3], table.pk, uuid.uuid4())
    table.refresh_from_db()
    assert table.start_at is not None and waiting_until is not None
    assert table.start_at < waiting_until
    soon = timezone.now() + timedelta(seconds=table.rules.start_seconds)
    assert table.start_at <= soon


def test_a_table_already_playing_keeps_its_countdown_when_a_player_comes_back(
    players: list[Any],
) -> None:
    t = _started_sit_and_go(players)
    (table,) = _tables(t)
    for p in players:
        games.connected(p, table.pk, uuid.uuid4())
    assert play_round(table.pk) is not None
    table.refresh_from_db()
    between = table.start_at  # the summary's countdown to the next deal
    games.connected(players[0], table.pk, uuid.uuid4())  # a second tab: nothing changes
    table.refresh_from_db()
    assert table.start_at == between


@pytest.mark.usefixtures("fixed_boards")
@override_settings(ARENA_PAIR_WAIT_SECONDS=0)
def test_an_arena_board_waits_for_its_players_to_open_the_table(players: list[Any]) -> None:
    t = arena.create_arena(players[0], name="Bàn chờ", minutes=5, buy_in=0)
    arena.join(players[1], t.pk)
    for p in players[:2]:
        assert arena.socket_opened(p, t.pk, uuid.uuid4())  # on the arena page, not the table
    before = timezone.now()
    arena.start_now(players[0], t.pk)
    t.refresh_from_db()
    (table,) = _tables(t)
    assert table.start_at is not None
    assert table.start_at >= before + timedelta(seconds=settings.TOURNAMENT_JOIN_SECONDS)
    for p in players[:2]:
        games.connected(p, table.pk, uuid.uuid4())
    table.refresh_from_db()
    assert table.start_at <= timezone.now() + timedelta(seconds=table.rules.start_seconds)


def test_the_state_gives_each_table_its_next_deal_and_everyone_still_in_a_rank(
    players: list[Any],
) -> None:
    t = _started_sit_and_go(players)
    (table,) = _tables(t)
    state = selectors.tournament_state(t.pk)
    assert state["tables"][0]["start_at"] == table.start_at.isoformat()
    # Equal stacks at the start: everyone shares rank 1.
    assert [row["rank"] for row in state["standings"]] == [1, 1, 1, 1]
    for p in players:
        games.connected(p, table.pk, uuid.uuid4())
    play_round(table.pk)
    state = selectors.tournament_state(t.pk)
    stacks = [row["stack"] for row in state["standings"] if row["place"] is None]
    ranks = [row["rank"] for row in state["standings"] if row["place"] is None]
    assert ranks == [1 + sum(1 for o in stacks if o > s) for s in stacks]


def test_before_the_start_the_page_says_who_registered_not_who_is_left(
    client: Any, players: list[Any]
) -> None:
    t = sitandgo.create_sit_and_go(players[0], name="Chưa đủ", players=4, buy_in=100)
    sitandgo.register(players[1], t.pk)
    client.force_login(players[0])
    page = client.get(f"/tournaments/{t.pk}/").content.decode()  # Vietnamese, the default
    assert "Đã đăng ký 2/4 người: giải bắt đầu khi đủ người" in page
    assert "còn 0/4" not in page
