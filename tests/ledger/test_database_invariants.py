"""The database itself refuses what the ledger forbids, whoever writes the SQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from ledger.models import Account, Posting, Transfer

pytestmark = pytest.mark.postgres


def _raw(sql: str, params: list[Any]) -> None:
    # A savepoint, so the refused statement does not abort the test's transaction.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_the_database_refuses_to_update_a_transfer(player: Any) -> None:
    transfer = Transfer.objects.get()
    with pytest.raises(IntegrityError, match="append-only"):
        _raw("UPDATE ledger_transfer SET amount = 999999 WHERE id = %s", [transfer.pk])
    assert Transfer.objects.get().amount == 10_000


def test_the_database_refuses_to_delete_a_transfer(player: Any) -> None:
    transfer = Transfer.objects.get()
    with pytest.raises(IntegrityError, match="append-only"):
        _raw("DELETE FROM ledger_transfer WHERE id = %s", [transfer.pk])


def test_the_database_refuses_to_update_or_delete_a_posting(player: Any) -> None:
    posting = Posting.objects.filter(account__user=player).get()
    with pytest.raises(IntegrityError, match="append-only"):
        _raw("UPDATE ledger_posting SET balance_after = 0 WHERE id = %s", [posting.pk])
    with pytest.raises(IntegrityError, match="append-only"):
        _raw("DELETE FROM ledger_posting WHERE id = %s", [posting.pk])


def test_the_database_refuses_a_direct_overdraft(player: Any) -> None:
    with pytest.raises(IntegrityError, match="ledger_account_balance_not_negative"):
        _raw("UPDATE ledger_account SET balance = balance - 10001 WHERE user_id = %s", [player.pk])
    assert Account.objects.get(user=player).balance == 10_000


def test_only_the_issuance_account_may_go_below_zero(player: Any) -> None:
    issuance = Account.objects.get(kind="issuance")
    assert issuance.balance == -10_000
    house = Account.objects.create(key="house:0", kind="house", shard=0)
    with pytest.raises(IntegrityError, match="ledger_account_balance_not_negative"):
        _raw("UPDATE ledger_account SET balance = -1 WHERE id = %s", [house.pk])


def test_the_database_refuses_a_transfer_of_zero_xu(player: Any) -> None:
    transfer = Transfer.objects.get()
    with pytest.raises(IntegrityError, match="ledger_transfer_amount_positive"):
        _raw(
            "INSERT INTO ledger_transfer (idempotency_key, kind, debit_id, credit_id, amount,"
            " reason, created_at) VALUES ('zero', 'adjustment', %s, %s, 0, '', now())",
            [transfer.debit_id, transfer.credit_id],
        )


def test_an_account_cannot_change_hands(player: Any, other_player: Any) -> None:
    with pytest.raises(IntegrityError, match="append-only"):
        _raw(
            "UPDATE ledger_account SET user_id = %s WHERE user_id = %s",
            [other_player.pk, player.pk],
        )
