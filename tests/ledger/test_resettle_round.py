from __future__ import annotations

from typing import Any

import pytest

from ledger import selectors, services
from ledger.audit import run_checks
from ledger.errors import InvalidSettlement, NotReversible
from ledger.models import Transfer


@pytest.fixture
def wrongly_settled(player: Any, other_player: Any, third_player: Any) -> list[Any]:
    for user in (player, other_player, third_player):
        services.hold(11, user, 1_000)
    # Paid the wrong way round: an should have won 600.
    services.settle_round(11, {player.pk: -600, other_player.pk: 400, third_player.pk: 200})
    return [player, other_player, third_player]


def test_a_resettlement_moves_only_the_differences_and_empties_the_escrow(
    wrongly_settled: list[Any], staff: Any
) -> None:
    an, binh, chi = wrongly_settled
    right = {an.pk: 600, binh.pk: -400, chi.pk: -200}
    moved = services.resettle_round(11, right, reason="Dispute #1", actor=staff)
    assert {t.kind for t in moved} == {"resettlement"}
    assert [selectors.balance(u) for u in wrongly_settled] == [10_600, 9_600, 9_800]
    assert selectors.escrow_outstanding() == 0
    assert services.round_wallet_results(11) == ({an.pk: 600, binh.pk: -400, chi.pk: -200}, 0)
    assert run_checks().ok


def test_resettling_twice_changes_nothing(wrongly_settled: list[Any], staff: Any) -> None:
    an, binh, chi = wrongly_settled
    right = {an.pk: 600, binh.pk: -400, chi.pk: -200}
    services.resettle_round(11, right, reason="Dispute #1", actor=staff)
    count = Transfer.objects.count()
    assert services.resettle_round(11, right, reason="Dispute #1", actor=staff) == []
    assert Transfer.objects.count() == count


def test_a_resettlement_takes_the_house_fee_at_the_closures_rate(
    player: Any, other_player: Any, staff: Any, settings: Any
) -> None:
    settings.HOUSE_FEE_PERCENT = "10"
    for user in (player, other_player):
        services.hold(12, user, 1_000)
    services.settle_round(12, {player.pk: 500, other_player.pk: -500})  # fee 50
    settings.HOUSE_FEE_PERCENT = "0"
    services.resettle_round(12, {player.pk: -300, other_player.pk: 300}, reason="x", actor=staff)
    assert selectors.balance(player) == 9_700
    assert selectors.balance(other_player) == 10_270  # the 10 % of 300 still goes to the house
    assert selectors.house_revenue() == 30
    assert run_checks().ok


def test_a_resettlement_transfer_cannot_be_reversed(wrongly_settled: list[Any], staff: Any) -> None:
    an, binh, chi = wrongly_settled
    moved = services.resettle_round(
        11, {an.pk: 600, binh.pk: -400, chi.pk: -200}, reason="x", actor=staff
    )
    with pytest.raises(NotReversible):
        services.reverse_transfer(moved[0], reason="oops", actor=staff)


def test_a_round_that_was_not_settled_cannot_be_resettled(player: Any, staff: Any) -> None:
    services.hold(13, player, 100)
    with pytest.raises(InvalidSettlement):
        services.resettle_round(13, {player.pk: 0}, reason="x", actor=staff)
