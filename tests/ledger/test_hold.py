from __future__ import annotations

from typing import Any

import pytest

from ledger import selectors, services
from ledger.errors import IdempotencyConflict, InsufficientFunds, RoundAlreadyClosed


def test_a_hold_moves_xu_from_the_wallet_to_the_rounds_escrow(player: Any) -> None:
    transfer = services.hold(7, player, 2_500)
    assert transfer.kind == "hold"
    assert transfer.round_id == 7
    assert selectors.balance(player) == 7_500
    assert selectors.escrow_outstanding() == 2_500
    assert selectors.holds_of_round(7) == {player.pk: 2_500}


def test_holding_twice_for_the_same_round_returns_the_first_hold(player: Any) -> None:
    first = services.hold(7, player, 2_500)
    assert services.hold(7, player, 2_500).pk == first.pk
    assert selectors.balance(player) == 7_500


def test_a_different_hold_for_the_same_round_is_refused(player: Any) -> None:
    services.hold(7, player, 2_500)
    with pytest.raises(IdempotencyConflict):
        services.hold(7, player, 3_000)


def test_a_hold_cannot_exceed_the_balance(player: Any) -> None:
    with pytest.raises(InsufficientFunds):
        services.hold(7, player, 10_001)
    assert selectors.balance(player) == 10_000


def test_no_hold_is_taken_after_the_round_is_closed(player: Any, other_player: Any) -> None:
    services.hold(7, player, 100)
    services.release_round_holds(7)
    with pytest.raises(RoundAlreadyClosed):
        services.hold(7, other_player, 100)
    assert selectors.balance(other_player) == 10_000
