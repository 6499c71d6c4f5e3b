"""A sit-and-go played through: rounds at its tables move chips (never xu), players bust,
tables are balanced and broken, the level rises, and the pool pays the prize table."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Round, RoundPlayer, Seat
from ledger import selectors as ledger_selectors
from ledger.audit import run_checks
from ledger.models import Account
from tournaments.models import Entry, EntryState, State, Tournament
from tournaments.sitandgo import rules as structure
from tournaments.sitandgo import services
from tournaments.sweeper import sweep_tournaments

from .conftest import open_tables, play_round

pytestmark = pytest.mark.django_db(transaction=True)


def _chips(t: Tournament) -> int:
    return sum(Entry.objects.filter(tournament=t).values_list("stack", flat=True))


def play_to_the_end(t: Tournament, rounds: int = 150) -> list[Round]:
    """Play rounds table by table, with the table step after each, until it is over."""
    played = []
    for _ in range(rounds):
        t.refresh_from_db()
        if t.state == State.FINISHED:
            break
        for table_id in open_tables(t):
            round_ = play_round(table_id)
            if round_ is not None:
                played.append(round_)
                assert _chips(t) == t.chips_in_play  # conserved after every round
            services.table_step(t.pk)
    t.refresh_from_db()
    services.table_step(t.pk)
    return played


def test_a_four_player_sit_and_go_ends_with_the_winner_paid_the_whole_pool(players, small_stacks):
    wallets_before = sum(ledger_selectors.balance(p) for p in players)
    t = services.create_sit_and_go(players[0], name="Bốn", players=4, buy_in=500)
    for p in players[1:]:
        services.register(p, t.pk)
    rounds = play_to_the_end(t)
    t.refresh_from_db()
    assert t.state == State.FINISHED
    entries = list(t.entries.order_by("place"))
    assert [e.place for e in entries] == [1, 2, 3, 4]
    assert entries[0].state == EntryState.WON and entries[0].stack == t.chips_in_play
    assert all(e.state == EntryState.BUSTED and e.stack == 0 for e in entries[1:])
    assert [e.prize for e in entries] == [2_000, 0, 0, 0]
    assert ledger_selectors.balance(entries[0].user) == 10_000 - 500 + 2_000
    assert sum(ledger_selectors.balance(p) for p in players) == wallets_before
    assert ledger_selectors.pool_balance(t.pk) == 0
    # Chips never touched xu: no round of the tournament held anything in escrow.
    assert not Account.objects.filter(round_id__in=[r.pk for r in rounds]).exists()
    assert all(r.ratings == {"rated": False, "reason": "tournament", "players": {}} for r in rounds)
    # The tables were closed and everyone stood up.
    assert not Seat.objects.filter(table__tournament_table__tournament=t).exists()
    assert not open_tables(t)
    report = run_checks()
    assert report.ok, report.problems
    call_command("ledger_check")


def test_the_level_rises_on_the_published_schedule(players, small_stacks):
    t = services.create_sit_and_go(players[0], name="Mức", players=4, buy_in=0)
    for p in players[1:]:
        services.register(p, t.pk)
    table_id = open_tables(t)[0]
    first = play_round(table_id)
    second = play_round(table_id)
    t.refresh_from_db()
    assert first is not None and first.stake == t.levels[0]
    if t.state == State.RUNNING:
        assert second is not None and second.stake == t.levels[1]  # one round per level here
    assert t.levels == structure.level_stakes(10)


def test_six_players_start_at_two_tables_and_end_at_one(make_user, small_stacks):
    creator = make_user("an")
    t = services.create_sit_and_go(creator, name="Sáu", players=6, buy_in=100, allow_bots=True)
    services.start_now_with_bots(creator, t.pk)
    t.refresh_from_db()
    sizes = sorted(Seat.objects.filter(table__in=open_tables(t)).values_list("table_id", flat=True))
    assert len(open_tables(t)) == 2 and sorted(map(sizes.count, set(sizes))) == [3, 3]
    play_to_the_end(t)
    t.refresh_from_db()
    assert t.state == State.FINISHED
    places = sorted(t.entries.values_list("place", flat=True))
    assert places == [1, 2, 3, 4, 5, 6]
    prizes = list(t.entries.order_by("place").values_list("prize", flat=True))
    assert prizes == [390, 210, 0, 0, 0, 0]  # 65 % and 35 % of 600
    assert ledger_selectors.pool_balance(t.pk) == 0
    assert run_checks().ok


def test_an_away_player_is_played_for_and_never_stood_up_for_being_away(players, small_stacks):
    from datetime import timedelta

    from django.utils import timezone

    t = services.create_sit_and_go(players[0], name="Vắng", players=4, buy_in=0)
    for p in players[1:]:
        services.register(p, t.pk)
    Seat.objects.filter(user=players[1]).update(last_seen_at=timezone.now() - timedelta(hours=1))
    round_ = play_round(open_tables(t)[0])
    assert round_ is not None
    away = RoundPlayer.objects.get(round=round_, user=players[1])
    assert away.auto_arranged  # played for them at the deadline (docs/rules.md#timing)
    entry = Entry.objects.get(tournament=t, user=players[1])
    assert entry.state == EntryState.BUSTED or Seat.objects.filter(user=players[1]).exists()


def test_a_player_cannot_leave_a_tournament_table(players, small_stacks):
    from games import services as games
    from games.errors import SeatError

    t = services.create_sit_and_go(players[0], name="Ở lại", players=4, buy_in=0)
    for p in players[1:]:
        services.register(p, t.pk)
    with pytest.raises(SeatError) as refused:
        games.stand(players[2])
    assert refused.value.code == "assigned_seats"
    assert Seat.objects.filter(user=players[2]).exists()


def test_table_steps_and_sweeps_that_find_nothing_to_do_change_nothing(players, small_stacks):
    t = services.create_sit_and_go(players[0], name="Yên", players=4, buy_in=0)
    for p in players[1:]:
        services.register(p, t.pk)
    t.refresh_from_db()
    version = t.version
    assert services.table_step(t.pk) is False
    assert sweep_tournaments() == 0
    t.refresh_from_db()
    assert t.version == version
