from __future__ import annotations

from typing import Any

import pytest

from ledger import selectors, services
from ledger.errors import RoundAlreadyClosed


def test_voiding_a_round_returns_every_hold(player: Any, other_player: Any) -> None:
    services.hold(5, player, 700)
    services.hold(5, other_player, 300)
    closure = services.release_round_holds(5)
    assert closure.outcome == "voided"
    assert selectors.balance(player) == selectors.balance(other_player) == 10_000
    assert selectors.escrow_outstanding() == 0


def test_voiding_twice_changes_nothing(player: Any) -> None:
    services.hold(5, player, 700)
    first = services.release_round_holds(5)
    assert services.release_round_holds(5).pk == first.pk
    assert selectors.balance(player) == 10_000


def test_a_settled_round_cannot_be_voided(player: Any, other_player: Any) -> None:
    services.hold(5, player, 700)
    services.hold(5, other_player, 700)
    services.settle_round(5, {player.pk: 100, other_player.pk: -100})
    with pytest.raises(RoundAlreadyClosed) as refused:
        services.release_round_holds(5)
    assert refused.value.code == "round_already_closed"
