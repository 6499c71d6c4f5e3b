"""The ledger's tournament pool: buy-ins in, refunds and prizes out, closed once."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from ledger import selectors, services
from ledger.audit import run_checks
from ledger.errors import InsufficientFunds, InvalidSettlement, PoolAlreadyClosed
from ledger.models import Account, AccountKind, PoolOutcome, Transfer

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("an", "binh", "chi")]


def test_a_buy_in_moves_xu_from_the_wallet_into_the_tournament_pool(three):
    services.buy_in(7, three[0], 500)
    assert selectors.balance(three[0]) == 9_500
    assert selectors.pool_balance(7) == 500
    pool = Account.objects.get(key="pool:7")
    assert (pool.kind, pool.tournament_id, pool.user_id, pool.round_id) == ("pool", 7, None, None)


def test_the_same_buy_in_twice_is_paid_once(three):
    first = services.buy_in(7, three[0], 500)
    again = services.buy_in(7, three[0], 500)
    assert first.pk == again.pk
    assert selectors.balance(three[0]) == 9_500


def test_a_buy_in_larger_than_the_wallet_is_refused_and_nothing_moves(three):
    with pytest.raises(InsufficientFunds):
        services.buy_in(7, three[0], 10_001)
    assert selectors.balance(three[0]) == 10_000
    assert selectors.pool_balance(7) == 0


def test_a_refund_gives_back_exactly_the_buy_in_and_a_second_entry_pays_again(three):
    services.buy_in(7, three[0], 500, entry=1)
    refund = services.refund_buy_in(7, three[0], entry=1)
    assert refund is not None and refund.amount == 500
    assert services.refund_buy_in(7, three[0], entry=1).pk == refund.pk  # once
    services.buy_in(7, three[0], 500, entry=2)
    assert selectors.balance(three[0]) == 9_500
    assert selectors.pool_balance(7) == 500


def test_prizes_must_add_up_to_the_pool(three):
    for user in three:
        services.buy_in(7, user, 100)
    with pytest.raises(InvalidSettlement):
        services.pay_prizes(7, {three[0].pk: 200})
    closure = services.pay_prizes(7, {three[0].pk: 200, three[1].pk: 100})
    assert closure.outcome == PoolOutcome.PAID
    assert selectors.pool_balance(7) == 0
    assert [selectors.balance(u) for u in three] == [10_100, 10_000, 9_900]
    assert services.pay_prizes(7, {three[1].pk: 100, three[0].pk: 200}).pk == closure.pk
    with pytest.raises(PoolAlreadyClosed):
        services.pay_prizes(7, {three[0].pk: 300})


def test_a_closed_pool_takes_no_more_buy_ins(three):
    services.buy_in(7, three[0], 100)
    services.pay_prizes(7, {three[0].pk: 100})
    with pytest.raises(PoolAlreadyClosed):
        services.buy_in(7, three[1], 100)
    assert selectors.balance(three[1]) == 10_000


def test_cancelling_refunds_every_buy_in_still_in_the_pool_once(three):
    for user in three:
        services.buy_in(9, user, 250)
    services.refund_buy_in(9, three[0])
    closure = services.refund_pool(9)
    assert services.refund_pool(9).pk == closure.pk
    assert [selectors.balance(u) for u in three] == [10_000] * 3
    assert selectors.pool_balance(9) == 0
    assert Transfer.objects.filter(kind="buy_in_refund").count() == 3
    with pytest.raises(PoolAlreadyClosed):
        services.pay_prizes(9, {})


def test_ledger_check_passes_after_pools_are_paid_and_refunded(three):
    for user in three:
        services.buy_in(1, user, 100)
        services.buy_in(2, user, 100)
    services.pay_prizes(1, {three[2].pk: 300})
    services.refund_pool(2)
    report = run_checks()
    assert report.ok, report.problems
    assert report.figures["pools"] == 0
    call_command("ledger_check")


def test_ledger_check_flags_prizes_paid_from_a_pool_never_closed(three):
    services.buy_in(3, three[0], 100)
    services.post_transfers(
        [
            services.Leg(
                kind="prize", debit="pool:3", credit=f"wallet:{three[1].pk}", amount=100, key="x"
            )
        ]
    )
    assert any("pool" in p for p in run_checks().problems)


@pytest.mark.postgres
def test_the_database_refuses_a_pool_account_without_its_tournament():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL constraint")
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(key="pool:x", kind=AccountKind.POOL)


@pytest.mark.postgres
def test_a_pool_closure_cannot_be_rewritten(three):
    services.buy_in(4, three[0], 100)
    services.pay_prizes(4, {three[0].pk: 100})
    with (
        pytest.raises(Exception, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE ledger_poolclosure SET prizes = '{}'")
