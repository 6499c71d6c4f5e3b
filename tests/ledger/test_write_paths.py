"""The PostgreSQL function and the Python write path (SQLite's) behave the same."""

from __future__ import annotations

from typing import Any

import pytest

from ledger import selectors, services
from ledger.audit import run_checks
from ledger.errors import IdempotencyConflict, InsufficientFunds, RoundAlreadyClosed
from ledger.keys import wallet_key
from ledger.models import Posting

pytestmark = pytest.mark.postgres


def _scenario(an: Any, binh: Any, staff: Any) -> list[tuple[str, int, int, int]]:
    services.claim_daily_bonus(an)
    services.adjust_balance(binh, -250, reason="correction", actor=staff, key="adj-1")
    services.hold(1, an, 3_000)
    services.hold(1, binh, 2_000)
    services.settle_round(1, {an.pk: -1_500, binh.pk: 1_500})
    services.hold(2, an, 100)
    services.release_round_holds(2)
    assert services.hold(2, an, 100).kind == "hold"  # a repeat answers with the original
    with pytest.raises(RoundAlreadyClosed):
        services.hold(2, binh, 100)
    leg = services.Leg(
        kind="adjustment", debit=wallet_key(an.pk), credit=wallet_key(binh.pk), amount=7, key="p"
    )
    assert services.post_transfers([leg])[0].created
    assert not services.post_transfers([leg])[0].created
    with pytest.raises(IdempotencyConflict):
        services.post_transfers([services.Leg(**{**leg.__dict__, "amount": 8})])
    with pytest.raises(InsufficientFunds) as refused:
        services.post_transfers([services.Leg(**{**leg.__dict__, "key": "q", "amount": 99_999})])
    assert refused.value.params == {"balance": 9_493, "amount": 99_999}
    return [
        (p.transfer.kind, p.delta, p.balance_after, p.account_version)
        for p in Posting.objects.filter(account__user__in=[an, binh])
        .select_related("transfer")
        .order_by("account__user__username", "account_version")
    ]


EXPECTED_AN = [
    ("signup_grant", 10_000, 10_000, 1),
    ("daily_bonus", 1_000, 11_000, 2),
    ("hold", -3_000, 8_000, 3),
    ("settle", 1_500, 9_500, 4),
    ("hold", -100, 9_400, 5),
    ("release", 100, 9_500, 6),
    ("adjustment", -7, 9_493, 7),
]


@pytest.mark.usefixtures("write_path_both")
def test_both_write_paths_post_the_same_history(player: Any, other_player: Any, staff: Any) -> None:
    postings = _scenario(player, other_player, staff)
    assert postings[: len(EXPECTED_AN)] == EXPECTED_AN
    assert postings[len(EXPECTED_AN) :] == [
        ("signup_grant", 10_000, 10_000, 1),
        ("adjustment", -250, 9_750, 2),
        ("hold", -2_000, 7_750, 3),
        ("settle", 3_500, 11_250, 4),
        ("adjustment", 7, 11_257, 5),
    ]
    assert selectors.balance(player) == 9_493
    assert run_checks().ok
