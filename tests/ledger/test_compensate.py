from __future__ import annotations

from typing import Any

import pytest

from ledger import selectors, services
from ledger.audit import run_checks
from ledger.errors import IdempotencyConflict, ReasonRequired
from ledger.models import Transfer


def test_a_compensation_is_paid_by_the_house_and_funded_when_the_house_is_short(
    player: Any, staff: Any
) -> None:
    transfer = services.compensate(
        player, 700, reason="Lost a round to a bug", actor=staff, dispute_id=5
    )
    assert transfer.kind == "compensation"
    assert transfer.debit.kind == "house"
    assert selectors.balance(player) == 10_700
    funding = Transfer.objects.get(kind="house_funding")
    assert (funding.amount, funding.credit_id) == (700, transfer.debit_id)
    assert selectors.house_revenue() == 0
    assert run_checks().ok


def test_a_compensation_is_paid_once_per_key(player: Any, staff: Any) -> None:
    first = services.compensate(player, 700, reason="Bug", actor=staff, dispute_id=5)
    again = services.compensate(player, 700, reason="Bug", actor=staff, dispute_id=5)
    assert again.pk == first.pk
    assert selectors.balance(player) == 10_700
    with pytest.raises(IdempotencyConflict):
        services.compensate(player, 800, reason="Bug", actor=staff, dispute_id=5)
    assert selectors.balance(player) == 10_700


def test_a_compensation_needs_a_reason(player: Any, staff: Any) -> None:
    with pytest.raises(ReasonRequired):
        services.compensate(player, 700, reason=" ", actor=staff, dispute_id=5)
