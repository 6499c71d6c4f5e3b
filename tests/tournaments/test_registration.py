"""Creating a sit-and-go, registering, withdrawing, cancelling: the buy-in through the pool."""

from __future__ import annotations

import pytest

from games import services as games
from games.errors import SeatError
from games.models import Seat
from ledger import selectors as ledger_selectors
from ledger import services as ledger_services
from ledger.audit import run_checks
from tournaments.errors import TournamentError
from tournaments.models import EntryState, State
from tournaments.services import unregister
from tournaments.sitandgo import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_creator_is_registered_and_pays_the_buy_in(players):
    t = services.create_sit_and_go(players[0], name="Chiều thứ bảy", players=4, buy_in=500)
    assert t.state == State.REGISTERING
    assert t.entries.get().state == EntryState.REGISTERED
    assert ledger_selectors.balance(players[0]) == 9_500
    assert ledger_selectors.pool_balance(t.pk) == 500


def test_the_last_place_taken_starts_the_tournament_at_one_table(players):
    t = services.create_sit_and_go(players[0], name="Bốn người", players=4, buy_in=100)
    for p in players[1:]:
        services.register(p, t.pk)
    t.refresh_from_db()
    assert t.state == State.RUNNING
    assert t.tables.count() == 1
    table = t.tables.get().table
    assert table.stakes_in == "chips" and table.stake == t.levels[0]
    assert sorted(Seat.objects.filter(table=table).values_list("user_id", flat=True)) == sorted(
        p.pk for p in players
    )
    assert {e.stack for e in t.entries.all()} == {t.starting_stack}
    assert ledger_selectors.pool_balance(t.pk) == 400
    assert table.start_at is not None  # the first deal is on its countdown


def test_withdrawing_before_the_start_refunds_the_buy_in(players):
    t = services.create_sit_and_go(players[0], name="Rút lui", players=5, buy_in=300)
    services.register(players[1], t.pk)
    unregister(players[1], t.pk)
    assert ledger_selectors.balance(players[1]) == 10_000
    services.register(players[1], t.pk)  # and may come back, paying again
    assert ledger_selectors.balance(players[1]) == 9_700
    assert ledger_selectors.pool_balance(t.pk) == 600
    assert run_checks().ok


def test_cancelling_refunds_everyone_and_closes_the_pool(players):
    t = services.create_sit_and_go(players[0], name="Hủy", players=6, buy_in=300)
    services.register(players[1], t.pk)
    with pytest.raises(TournamentError) as refused:
        services.cancel(players[1], t.pk)
    assert refused.value.code == "not_creator"
    services.cancel(players[0], t.pk)
    assert [ledger_selectors.balance(p) for p in players[:2]] == [10_000, 10_000]
    with pytest.raises(TournamentError):
        services.register(players[2], t.pk)
    report = run_checks()
    assert report.ok, report.problems


def test_a_buy_in_the_wallet_cannot_pay_is_refused_with_the_figures(players):
    t = services.create_sit_and_go(players[0], name="Đắt", players=4, buy_in=6_000)
    ledger_services.buy_in(999, players[1], 5_000)  # spent elsewhere: 5,000 xu left
    with pytest.raises(TournamentError) as refused:
        services.register(players[1], t.pk)
    assert refused.value.code == "balance_too_low"
    assert "5.000" in refused.value.message or "5,000" in refused.value.message
    assert t.entries.count() == 1  # nothing half-done


def test_a_started_tournament_refunds_nobody_and_says_it_has_started(players):
    """Withdrawing from a started tournament used to say "You are not registered"."""
    t = services.create_sit_and_go(players[0], name="Đã bắt đầu", players=4, buy_in=100)
    for p in players[1:]:
        services.register(p, t.pk)
    with pytest.raises(TournamentError) as refused:
        unregister(players[1], t.pk)
    assert refused.value.code == "started"
    assert refused.value.message == (
        "Giải đã bắt đầu: phí tham gia chỉ được hoàn trước khi bắt đầu."
    )
    assert ledger_selectors.balance(players[1]) == 9_900


def test_withdrawing_says_what_became_of_the_tournament(players, make_user):
    outsider = make_user("khach")
    t = services.create_sit_and_go(players[0], name="Hủy", players=4, buy_in=100)
    with pytest.raises(TournamentError) as never:
        unregister(outsider, t.pk)
    assert never.value.code == "not_registered"
    services.cancel(players[0], t.pk)
    with pytest.raises(TournamentError) as called_off:
        unregister(players[0], t.pk)
    assert called_off.value.code == "called_off"


def test_an_entrant_cannot_sit_at_an_ordinary_table_nor_register_twice(players):
    services.create_sit_and_go(players[0], name="Chờ", players=4, buy_in=0)
    table = games.create_table(players[1], name="Bàn thường", stake=10)
    with pytest.raises(SeatError) as refused:
        games.sit(players[0], table.pk)
    assert refused.value.code == "engaged"
    other = services.create_sit_and_go(players[1], name="Khác", players=4, buy_in=0)
    with pytest.raises(TournamentError) as twice:
        services.register(players[0], other.pk)
    assert twice.value.code == "engaged"


def test_a_seated_player_must_leave_their_table_before_registering(players):
    t = services.create_sit_and_go(players[0], name="Ngồi", players=4, buy_in=0)
    table = games.create_table(players[1], name="Bàn thường", stake=10)
    games.sit(players[1], table.pk)
    with pytest.raises(TournamentError) as refused:
        services.register(players[1], t.pk)
    assert refused.value.code == "seated"


def test_bots_fill_the_free_places_when_the_creator_starts_now(players):
    t = services.create_sit_and_go(
        players[0], name="Với bot", players=4, buy_in=200, allow_bots=True
    )
    assert t.bots_at is not None
    services.start_now_with_bots(players[0], t.pk)
    t.refresh_from_db()
    assert t.state == State.RUNNING
    assert t.entries.filter(user__is_bot=True).count() == 3
    assert ledger_selectors.pool_balance(t.pk) == 800
    assert run_checks().ok
