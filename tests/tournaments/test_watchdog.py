"""The watchdog (docs/tournaments.md): a tournament that made no progress for
TOURNAMENT_STALL_MINUTES is ended by the server from the sweeper, its pool paid out or
refunded through the ledger, so no pool sticks and no entrant stays locked out."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games import services as games
from games.models import Round, RoundState, Seat, Table
from ledger import selectors as ledger_selectors
from ledger import services as ledger
from ledger.audit import run_checks
from ledger.models import PoolClosure, PoolOutcome
from tests.support.arenas import start_arena
from tests.support.played import deal_when_due
from tournaments import watchdog
from tournaments.arena import services as arena
from tournaments.models import Entry, EntryState, State, Tournament
from tournaments.sitandgo import services
from tournaments.sweeper import sweep_tournaments

from .conftest import open_tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def _stall(t: Tournament, **more: Any) -> None:
    """Nothing happened for longer than the bound (10 minutes by default)."""
    long_ago = timezone.now() - timedelta(minutes=11)
    Tournament.objects.filter(pk=t.pk).update(progressed_at=long_ago, **more)


def _deal(table_id: int) -> Round:
    round_ = deal_when_due(table_id)
    assert round_ is not None and round_.state == RoundState.ARRANGING
    return round_


def _free_to_play(user: Any) -> None:
    """Not engaged any more: they may sit at an ordinary table."""
    table = games.create_table(user, name=f"Bàn của {user.username}", stake=10)
    games.sit(user, table.pk)  # refused (``engaged``) while a tournament holds them
    games.stand(user)


def test_a_registering_sit_and_go_nobody_joined_for_the_bound_is_cancelled_and_refunded(
    players,
):
    t = services.create_sit_and_go(players[0], name="Vắng", players=8, buy_in=500)
    services.register(players[1], t.pk)
    assert sweep_tournaments() == 0  # it moved on a moment ago
    _stall(t)
    assert sweep_tournaments() >= 1
    t.refresh_from_db()
    assert (t.state, t.end_reason) == (State.CANCELLED, "stalled")
    assert [ledger_selectors.balance(p) for p in players[:2]] == [10_000, 10_000]
    assert set(t.entries.values_list("state", flat=True)) == {EntryState.REFUNDED}
    _free_to_play(players[0])
    assert run_checks().ok


def test_a_tournament_waiting_for_its_own_clock_is_not_stalled(players):
    with override_settings(ARENA_START_SECONDS=3600):
        t = arena.create_arena(players[0], name="Tối", minutes=5, buy_in=100)
    _stall(t)
    assert watchdog.stalled_tournaments() == []
    sweep_tournaments()
    t.refresh_from_db()
    assert t.state == State.REGISTERING


def test_a_running_sit_and_go_stuck_mid_round_is_voided_and_every_buy_in_refunded(players):
    t = services.create_sit_and_go(players[0], name="Kẹt", players=4, buy_in=1_000)
    for user in players[1:]:
        services.register(user, t.pk)
    table_id = open_tables(t)[0]
    round_ = _deal(table_id)
    assert ledger_selectors.pool_balance(t.pk) == 4_000
    _stall(t)
    assert watchdog.end_stalled(t.pk) == "voided"
    t.refresh_from_db()
    round_.refresh_from_db()
    assert (t.state, t.end_reason) == (State.VOIDED, "stalled")
    assert round_.state == RoundState.CANCELLED
    assert not Seat.objects.filter(table_id=table_id).exists()
    assert not Table.objects.get(pk=table_id).is_open and not open_tables(t)
    assert ledger_selectors.pool_balance(t.pk) == 0
    assert PoolClosure.objects.get(tournament_id=t.pk).outcome == PoolOutcome.REFUNDED
    assert [ledger_selectors.balance(p) for p in players] == [10_000] * 4
    assert set(t.entries.values_list("state", flat=True)) == {EntryState.REFUNDED}
    for user in players:
        _free_to_play(user)
    other = services.create_sit_and_go(players[1], name="Giải sau", players=4, buy_in=0)
    assert other.entries.count() == 1
    report = run_checks()
    assert report.ok, report.problems


def test_a_sit_and_go_whose_entrants_were_stood_up_ends_voided_not_stuck(players):
    """What the host's "remove" used to leave: two entrants still playing but seated
    nowhere, the tournament unable to finish, its pool stuck and everyone locked."""
    t = services.create_sit_and_go(players[0], name="Bị mời ra", players=4, buy_in=100)
    for user in players[1:]:
        services.register(user, t.pk)
    table_id = open_tables(t)[0]
    with transaction.atomic():
        table = games.lock_table(table_id)
        for victim in players[2:]:
            games.unassign_seat(table, victim, reason="removed")
    _stall(t)
    assert sweep_tournaments() >= 1
    t.refresh_from_db()
    assert t.state == State.VOIDED
    assert ledger_selectors.pool_balance(t.pk) == 0
    assert [ledger_selectors.balance(p) for p in players] == [10_000] * 4
    for user in players:
        _free_to_play(user)
    assert run_checks().ok


def test_a_running_arena_with_no_end_time_is_voided_and_refunded(players):
    """The state the sit-and-go register URL made of an arena (started as a sit-and-go:
    chip tables, no end time): it could never end."""
    t = arena.create_arena(players[0], name="Đấu trường", minutes=5, buy_in=500, players=4)
    with transaction.atomic():  # what the sit-and-go register URL did to it
        for user in players[1:]:
            Entry.objects.create(tournament=t, user=user, state=EntryState.REGISTERED)
            ledger.buy_in(t.pk, user, 500)
        services._start(Tournament.objects.select_for_update().get(pk=t.pk))
    t.refresh_from_db()
    assert (t.state, t.ends_at) == (State.RUNNING, None)
    assert ledger_selectors.pool_balance(t.pk) == 2_000
    _stall(t)
    assert sweep_tournaments() >= 1
    t.refresh_from_db()
    assert (t.state, t.end_reason) == (State.VOIDED, "no_end")
    assert ledger_selectors.pool_balance(t.pk) == 0
    assert [ledger_selectors.balance(p) for p in players] == [10_000] * 4
    assert not Seat.objects.filter(user__in=players).exists()
    assert t.schedule is not None and t.schedule.closed_at is not None
    for user in players:
        _free_to_play(user)
    assert run_checks().ok


@override_settings(ARENA_PAIR_WAIT_SECONDS=0)
def test_an_arena_past_its_end_with_a_stuck_board_voids_it_then_finishes_and_pays(players):
    t = start_arena(players, name="Hết giờ", minutes=5, buy_in=300)
    table_id = open_tables(t)[0]
    stuck = _deal(table_id)
    past = timezone.now() - timedelta(minutes=11)
    _stall(t, ends_at=past)
    assert arena.end(t.pk) is False  # the end timer cannot finish it: a board in play
    Tournament.objects.filter(pk=t.pk).update(progressed_at=past)
    assert watchdog.end_stalled(t.pk) == "finished"
    t.refresh_from_db()
    stuck.refresh_from_db()
    assert (t.state, t.end_reason) == (State.FINISHED, "stuck_rounds")
    assert stuck.state == RoundState.CANCELLED
    assert not Seat.objects.filter(user__in=players).exists()
    assert ledger_selectors.pool_balance(t.pk) == 0
    prizes = list(t.entries.order_by("place").values_list("prize", flat=True))
    assert prizes == [1_200, 0, 0, 0]
    assert PoolClosure.objects.get(tournament_id=t.pk).outcome == PoolOutcome.PAID
    assert t.schedule is not None and t.schedule.closed_at is not None
    assert run_checks().ok


def test_the_voided_tournaments_page_says_what_happened(client, players):
    t = services.create_sit_and_go(players[0], name="Kẹt", players=4, buy_in=1_000)
    for user in players[1:]:
        services.register(user, t.pk)
    _deal(open_tables(t)[0])
    _stall(t)
    watchdog.end_stalled(t.pk)
    client.force_login(players[1])
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert 'data-testid="end-note"' in page
    assert "10 phút" in page and "hoàn" in page
