from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from accounts.models import User
from ledger import selectors
from ledger.errors import IdempotencyConflict, InsufficientFunds, InvalidAmount
from ledger.keys import wallet_key
from ledger.models import Posting, Transfer
from ledger.services import Leg, post_transfers


def _leg(src: Any, dst: Any, amount: int, key: str) -> Leg:
    return Leg(
        kind="adjustment",
        debit=wallet_key(src.pk),
        credit=wallet_key(dst.pk),
        amount=amount,
        key=key,
    )


def test_a_transfer_moves_xu_and_records_both_postings(player: Any, other_player: Any) -> None:
    transfer = post_transfers([_leg(player, other_player, 300, "t1")])[0].transfer
    assert selectors.balance(player) == 9_700
    assert selectors.balance(other_player) == 10_300
    debit, credit = transfer.postings.order_by("delta")
    assert (debit.delta, debit.balance_after, debit.account_version) == (-300, 9_700, 2)
    assert (credit.delta, credit.balance_after, credit.account_version) == (300, 10_300, 2)


def test_repeating_a_key_with_the_same_content_returns_the_original(
    player: Any, other_player: Any
) -> None:
    first = post_transfers([_leg(player, other_player, 300, "t1")])[0]
    again = post_transfers([_leg(player, other_player, 300, "t1")])[0]
    assert first.created
    assert not again.created
    assert again.transfer.pk == first.transfer.pk
    assert selectors.balance(player) == 9_700


def test_repeating_a_key_with_different_content_is_refused(player: Any, other_player: Any) -> None:
    post_transfers([_leg(player, other_player, 300, "t1")])
    with pytest.raises(IdempotencyConflict) as refused:
        post_transfers([_leg(player, other_player, 301, "t1")])
    assert refused.value.code == "idempotency_conflict"
    assert "t1" in refused.value.message
    assert selectors.balance(player) == 9_700


def test_a_batch_that_fails_half_way_changes_nothing(player: Any, other_player: Any) -> None:
    legs = [
        _leg(player, other_player, 4_000, "pay-1"),
        _leg(player, other_player, 4_000, "pay-2"),
        _leg(player, other_player, 4_000, "pay-3"),  # only 2,000 left: refused
    ]
    with pytest.raises(InsufficientFunds) as refused:
        post_transfers(legs)
    assert refused.value.code == "insufficient_funds"
    assert selectors.balance(player) == 10_000
    assert selectors.balance(other_player) == 10_000
    assert not Transfer.objects.filter(idempotency_key__startswith="pay-").exists()
    assert Posting.objects.count() == 4  # the two sign-up grants


def test_a_refused_transfer_leaves_the_callers_transaction_usable(
    player: Any, other_player: Any
) -> None:
    with transaction.atomic():
        User.objects.filter(pk=player.pk).update(display_name="An")
        with pytest.raises(InsufficientFunds):
            post_transfers([_leg(player, other_player, 50_000, "too-much")])
        post_transfers([_leg(player, other_player, 10, "small")])
    assert User.objects.get(pk=player.pk).display_name == "An"
    assert selectors.balance(other_player) == 10_010


@pytest.mark.parametrize("amount", [0, -5, 1.5, True])
def test_a_transfer_needs_a_positive_whole_number_of_xu(
    player: Any, other_player: Any, amount: Any
) -> None:
    with pytest.raises(InvalidAmount):
        post_transfers([_leg(player, other_player, amount, "bad")])


def test_a_later_leg_of_a_batch_may_spend_what_an_earlier_leg_brought(
    write_path_both: str, player: Any, other_player: Any
) -> None:
    posted = post_transfers(
        [_leg(other_player, player, 5_000, "in"), _leg(player, other_player, 14_000, "out")]
    )
    assert [p.created for p in posted] == [True, True]
    assert selectors.balance(player) == 1_000
    chain = Posting.objects.filter(account__key=wallet_key(player.pk)).order_by("account_version")
    assert [(p.delta, p.balance_after, p.account_version) for p in chain] == [
        (10_000, 10_000, 1),
        (5_000, 15_000, 2),
        (-14_000, 1_000, 3),
    ]


def test_a_batch_is_refused_at_its_first_leg_short_of_funds_with_that_legs_figures(
    write_path_both: str, player: Any, other_player: Any
) -> None:
    legs = [_leg(player, other_player, 6_000, "a"), _leg(player, other_player, 6_000, "b")]
    with pytest.raises(InsufficientFunds) as refused:
        post_transfers(legs)
    assert refused.value.params == {"balance": 4_000, "amount": 6_000}
    assert selectors.balance(player) == 10_000


def test_a_batch_mixing_repeated_and_new_keys_answers_each_leg_in_its_place(
    write_path_both: str, player: Any, other_player: Any
) -> None:
    original = post_transfers([_leg(player, other_player, 300, "t1")])[0].transfer
    posted = post_transfers(
        [
            _leg(player, other_player, 100, "t2"),
            _leg(player, other_player, 300, "t1"),
            _leg(other_player, player, 50, "t3"),
        ]
    )
    assert [p.created for p in posted] == [True, False, True]
    assert posted[1].transfer.pk == original.pk
    assert [p.transfer.idempotency_key for p in posted] == ["t2", "t1", "t3"]
    assert (posted[2].transfer.debit_id, posted[2].transfer.credit_id) == (
        original.credit_id,
        original.debit_id,
    )
    assert selectors.balance(player) == 10_000 - 300 - 100 + 50
    assert posted[0].transfer.pk < posted[2].transfer.pk
