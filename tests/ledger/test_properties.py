"""Property: whatever happens, xu are neither created nor lost except by issuance."""

from __future__ import annotations

import contextlib
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.db.models import Sum
from hypothesis import given
from hypothesis import strategies as st

from ledger import selectors, services
from ledger.audit import run_checks
from ledger.errors import LedgerError
from ledger.models import Account, Transfer
from tests.support.properties import on_the_database

pytestmark = pytest.mark.postgres

PLAYERS = 3
ROUNDS = 4
player_index = st.integers(0, PLAYERS - 1)
round_id = st.integers(1, ROUNDS)
operation = st.one_of(
    st.tuples(st.just("grant"), player_index, st.integers(1, 5_000)),
    st.tuples(st.just("burn"), player_index, st.integers(1, 12_000)),
    st.tuples(st.just("bonus"), player_index, st.integers(0, 2)),
    st.tuples(st.just("hold"), round_id, player_index, st.integers(1, 12_000)),
    st.tuples(st.just("settle"), round_id, st.integers(0, 2**16)),
    st.tuples(st.just("void"), round_id),
    st.tuples(st.just("reverse"), st.integers(0, 50)),
)


def _valid_deltas(holds: dict[int, int], seed: int) -> dict[int, int]:
    rng = random.Random(seed)
    deltas = dict.fromkeys(holds, 0)
    holders = sorted(holds)
    for _ in range(3 if len(holders) > 1 else 0):
        loser, winner = rng.sample(holders, 2)
        amount = rng.randint(0, holds[loser] + deltas[loser])
        deltas[loser] -= amount
        deltas[winner] += amount
    return deltas


def _apply(op: tuple[Any, ...], players: list[Any], staff: Any) -> int:
    """Run one operation; return how many xu it minted (negative: burned)."""
    name = op[0]
    if name == "grant":
        services.adjust_balance(players[op[1]], op[2], reason="property", actor=staff)
        return int(op[2])
    if name == "burn":
        services.adjust_balance(players[op[1]], -op[2], reason="property", actor=staff)
        return -int(op[2])
    if name == "bonus":
        day = datetime(2026, 1, 1, 5, tzinfo=UTC) + timedelta(days=op[2])
        services.claim_daily_bonus(players[op[1]], now=day)
        return services.DAILY_BONUS_XU
    if name == "hold":
        services.hold(op[1], players[op[2]], op[3])
    elif name == "settle":
        services.settle_round(op[1], _valid_deltas(selectors.holds_of_round(op[1]), op[2]))
    elif name == "void":
        services.release_round_holds(op[1])
    elif name == "reverse":
        supply = list(
            Transfer.objects.filter(kind__in=["adjustment", "daily_bonus", "signup_grant"])
            .filter(reversed_by__isnull=True)
            .order_by("pk")
        )
        if supply:
            original = supply[op[1] % len(supply)]
            services.reverse_transfer(original, reason="property", actor=staff)
            minted_back = original.debit.kind == "issuance"
            return -int(original.amount) if minted_back else int(original.amount)
    return 0


def _total_of_all_accounts() -> int:
    return int(Account.objects.aggregate(total=Sum("balance"))["total"] or 0)


@pytest.fixture
def table(make_user: Any, staff: Any) -> tuple[list[Any], Any]:
    return [make_user(f"prop{i}") for i in range(PLAYERS)], staff


@on_the_database(40)
@given(ops=st.lists(operation, max_size=20))
def test_any_sequence_of_operations_keeps_xu_constant_and_no_balance_negative(
    table: tuple[list[Any], Any], ops: list[tuple[Any, ...]]
) -> None:
    players, staff = table
    with transaction.atomic():
        expected = selectors.circulation()
        for op in ops:
            with contextlib.suppress(LedgerError):  # a refusal must change nothing
                expected += _apply(op, players, staff)
            assert _total_of_all_accounts() == 0
            assert selectors.circulation() == expected
            assert not Account.objects.exclude(kind="issuance").filter(balance__lt=0).exists()
        report = run_checks()
        assert report.ok, report.problems
        transaction.set_rollback(True)  # each example starts from the same ledger
