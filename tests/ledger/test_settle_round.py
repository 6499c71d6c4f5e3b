from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

from ledger import selectors, services
from ledger.audit import run_checks
from ledger.errors import InvalidSettlement, RoundAlreadyClosed, RoundSettledDifferently
from ledger.models import Transfer


@pytest.fixture
def seated(player: Any, other_player: Any, third_player: Any) -> list[Any]:
    for user in (player, other_player, third_player):
        services.hold(11, user, 1_000)
    return [player, other_player, third_player]


def test_each_player_gets_back_their_hold_plus_their_result(seated: list[Any]) -> None:
    an, binh, chi = seated
    closure = services.settle_round(11, {an.pk: 600, binh.pk: -400, chi.pk: -200})
    assert closure.outcome == "settled"
    assert closure.fee == 0
    assert [selectors.balance(u) for u in seated] == [10_600, 9_600, 9_800]
    assert selectors.escrow_outstanding() == 0
    assert run_checks().ok


def test_the_house_fee_is_taken_from_winners_gains_rounded_down(
    seated: list[Any], settings: Any
) -> None:
    settings.HOUSE_FEE_PERCENT = "2.5"
    an, binh, chi = seated
    # 2.5% of 333 = 8.325 -> 8; 2.5% of 67 = 1.675 -> 1; losers pay no fee.
    closure = services.settle_round(11, {an.pk: 333, binh.pk: 67, chi.pk: -400})
    assert closure.fee == 9
    assert [selectors.balance(u) for u in seated] == [10_325, 10_066, 9_600]
    assert selectors.house_revenue() == 9
    assert selectors.escrow_outstanding() == 0
    assert run_checks().ok


def test_a_loser_who_loses_the_whole_hold_gets_nothing_back(seated: list[Any]) -> None:
    an, binh, _chi = seated
    services.settle_round(11, {an.pk: 1_000, binh.pk: -1_000})
    assert [selectors.balance(u) for u in seated] == [11_000, 9_000, 10_000]
    assert not Transfer.objects.filter(kind="settle", credit__user=binh).exists()


def test_settling_twice_with_the_same_deltas_changes_nothing(seated: list[Any]) -> None:
    an, binh, _chi = seated
    first = services.settle_round(11, {an.pk: 500, binh.pk: -500})
    again = services.settle_round(11, {an.pk: 500, binh.pk: -500})
    assert again.pk == first.pk
    assert selectors.balance(an) == 10_500


def test_settling_again_with_different_deltas_is_refused(seated: list[Any]) -> None:
    an, binh, _chi = seated
    services.settle_round(11, {an.pk: 500, binh.pk: -500})
    with pytest.raises(RoundSettledDifferently) as refused:
        services.settle_round(11, {an.pk: -500, binh.pk: 500})
    assert refused.value.code == "round_settled_differently"
    assert selectors.balance(an) == 10_500


@pytest.mark.parametrize(
    ("deltas", "why"),
    [
        ({0: 100, 1: -50}, "add up to zero"),
        ({0: 1_500, 1: -1_500}, "more than their stake"),
        ({0: 1.5, 1: -1.5}, "whole numbers"),
    ],
)
@pytest.mark.usefixtures("english")
def test_invalid_deltas_are_refused(seated: list[Any], deltas: dict[int, Any], why: str) -> None:
    by_index = {seated[i].pk: delta for i, delta in deltas.items()}
    with pytest.raises(InvalidSettlement, match=why):
        services.settle_round(11, by_index)
    assert selectors.escrow_outstanding() == 3_000


@pytest.mark.usefixtures("english")
def test_a_player_without_a_stake_cannot_be_paid(seated: list[Any], make_user: Any) -> None:
    stranger = make_user("dao")
    with pytest.raises(InvalidSettlement, match="no stake"):
        services.settle_round(11, {seated[0].pk: -100, stranger.pk: 100})


def test_a_voided_round_cannot_be_settled(seated: list[Any]) -> None:
    services.release_round_holds(11)
    with pytest.raises(RoundAlreadyClosed):
        services.settle_round(11, {seated[0].pk: 100, seated[1].pk: -100})


def test_a_settlement_rolls_back_with_the_games_transaction(seated: list[Any]) -> None:
    an, binh, _chi = seated

    class GameFailed(Exception):
        pass

    def finish_round_then_fail() -> None:
        with transaction.atomic():
            services.settle_round(11, {an.pk: 500, binh.pk: -500})
            raise GameFailed

    with pytest.raises(GameFailed):
        finish_round_then_fail()
    assert selectors.round_closure(11) is None
    assert selectors.escrow_outstanding() == 3_000
    assert selectors.balance(an) == 9_000


@pytest.mark.postgres
@pytest.mark.usefixtures("write_path_both")
def test_a_settlement_that_fails_half_way_leaves_no_trace(seated: list[Any]) -> None:
    an, binh, chi = seated
    # The database refuses the third player's payout, after the first two were written.
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            CREATE FUNCTION pg_temp.refuse_payout() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.account_id = (SELECT id FROM ledger_account WHERE key = 'wallet:{chi.pk}')
                THEN RAISE EXCEPTION 'disk on fire'; END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER refuse_payout BEFORE INSERT ON ledger_posting
            FOR EACH ROW EXECUTE FUNCTION pg_temp.refuse_payout();
            """.replace("%", "%%")
        )
    with pytest.raises(DatabaseError, match="disk on fire"):
        services.settle_round(11, {an.pk: 300, binh.pk: -200, chi.pk: -100})
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER refuse_payout ON ledger_posting")
    assert not Transfer.objects.filter(kind="settle").exists()
    assert selectors.round_closure(11) is None
    assert selectors.escrow_outstanding() == 3_000
    assert [selectors.balance(u) for u in seated] == [9_000, 9_000, 9_000]
    services.settle_round(11, {an.pk: 300, binh.pk: -200, chi.pk: -100})  # still settles
    assert run_checks().ok
