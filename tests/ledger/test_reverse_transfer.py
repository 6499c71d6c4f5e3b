from __future__ import annotations

from typing import Any

import pytest

from ledger import selectors, services
from ledger.errors import AlreadyReversed, InsufficientFunds, NotReversible
from ledger.models import Transfer


def test_a_reversal_is_a_new_transfer_the_other_way(player: Any, staff: Any) -> None:
    bonus = services.claim_daily_bonus(player)
    reversal = services.reverse_transfer(bonus, reason="Claimed by a script", actor=staff)
    assert reversal.kind == "reversal"
    assert reversal.reverses == bonus
    assert (reversal.debit, reversal.credit) == (bonus.credit, bonus.debit)
    assert selectors.balance(player) == 10_000
    assert Transfer.objects.get(pk=bonus.pk).amount == 1_000  # the original is untouched


def test_reversing_twice_returns_the_first_reversal(player: Any, staff: Any) -> None:
    bonus = services.claim_daily_bonus(player)
    first = services.reverse_transfer(bonus, reason="dup", actor=staff)
    assert services.reverse_transfer(bonus, reason="dup", actor=staff).pk == first.pk
    assert selectors.balance(player) == 10_000


def test_reversing_again_for_another_reason_is_refused(player: Any, staff: Any) -> None:
    bonus = services.claim_daily_bonus(player)
    services.reverse_transfer(bonus, reason="dup", actor=staff)
    with pytest.raises(AlreadyReversed) as refused:
        services.reverse_transfer(bonus, reason="again", actor=staff)
    assert refused.value.code == "already_reversed"
    assert selectors.balance(player) == 10_000


def test_round_transfers_cannot_be_reversed(player: Any, staff: Any) -> None:
    stake = services.hold(3, player, 100)
    with pytest.raises(NotReversible):
        services.reverse_transfer(stake, reason="no", actor=staff)


def test_a_reversal_cannot_overdraw_the_wallet(player: Any, other_player: Any, staff: Any) -> None:
    grant = Transfer.objects.get(kind="signup_grant", credit__user=player)
    services.hold(3, player, 9_000)
    with pytest.raises(InsufficientFunds):
        services.reverse_transfer(grant, reason="fraud", actor=staff)
