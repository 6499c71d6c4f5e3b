"""One transfer posted by ledger_post_transfer answers exactly as a one-leg batch does.

Each test runs twice: once calling the single-transfer function, once the batch function
with that one leg, straight in SQL (no Python checks in front), and expects the same rows,
the same refusal (SQLSTATE and detail) and the same balances.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from ledger import selectors, services
from ledger.keys import escrow_key, issuance_key, wallet_key
from ledger.models import Account, Posting, Transfer

pytestmark = pytest.mark.postgres

Post = Callable[..., tuple[int, bool, int, int]]


def _single(key: str, kind: str, debit: str, credit: str, amount: int, **extra: Any) -> Any:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT transfer_id, created, debit_id, credit_id FROM ledger_post_transfer("
            "%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [
                key,
                kind,
                debit,
                credit,
                amount,
                timezone.now(),
                extra.get("round_id"),
                extra.get("actor_id"),
                extra.get("reason", ""),
                extra.get("reverses_id"),
                extra.get("open_round"),
            ],
        )
        return cursor.fetchone()


def _batch(key: str, kind: str, debit: str, credit: str, amount: int, **extra: Any) -> Any:
    leg = {"key": key, "kind": kind, "debit": debit, "credit": credit, "amount": amount}
    leg |= {name: extra.get(name) for name in ("round_id", "actor_id", "reverses_id")}
    leg["reason"] = extra.get("reason", "")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT transfer_id, created, debit_id, credit_id"
            " FROM ledger_post_transfers(%s::jsonb, %s, %s)",
            [json.dumps([leg]), timezone.now(), extra.get("open_round")],
        )
        return cursor.fetchone()


@pytest.fixture(params=["single-transfer function", "batch function"])
def post(request: pytest.FixtureRequest) -> Post:
    return _single if request.param == "single-transfer function" else _batch


def _refusal(call: Callable[[], Any]) -> tuple[str, str]:
    """The SQLSTATE and detail of a refused call (rolled back to a savepoint)."""
    with pytest.raises(DatabaseError) as refused, transaction.atomic():
        call()
    cause = refused.value.__cause__
    assert isinstance(cause, psycopg.Error)
    return str(cause.sqlstate), cause.diag.message_detail or ""


def test_a_transfer_moves_xu_and_answers_with_its_accounts(
    post: Post, player: Any, other_player: Any
) -> None:
    transfer_id, created, debit_id, credit_id = post(
        "t1", "adjustment", wallet_key(player.pk), wallet_key(other_player.pk), 300
    )
    assert created
    transfer = Transfer.objects.get(pk=transfer_id)
    assert (transfer.debit_id, transfer.credit_id, transfer.amount) == (debit_id, credit_id, 300)
    assert [
        (p.account_id, p.delta, p.balance_after, p.account_version)
        for p in Posting.objects.filter(transfer=transfer).order_by("delta")
    ] == [(debit_id, -300, 9_700, 2), (credit_id, 300, 10_300, 2)]
    assert (selectors.balance(player), selectors.balance(other_player)) == (9_700, 10_300)


def test_a_replayed_key_answers_with_the_first_transfer_and_moves_nothing(
    post: Post, player: Any, other_player: Any
) -> None:
    args = ("t1", "adjustment", wallet_key(player.pk), wallet_key(other_player.pk), 300)
    first = post(*args, reason="x")
    # Replayed after the wallet could no longer pay it: still the first answer, not a refusal.
    post("drain", "adjustment", wallet_key(player.pk), issuance_key("drain"), 9_700)
    again = post(*args, reason="x")
    assert again == (first[0], False, first[2], first[3])
    assert Transfer.objects.filter(idempotency_key="t1").count() == 1
    assert selectors.balance(player) == 0


@pytest.mark.parametrize(
    "change",
    [
        {"kind": "bot_topup"},
        {"amount": 301},
        {"credit": "third"},
        {"debit": "issuance"},
        {"reason": "other"},
        {"round_id": 5},
        {"reverses_id": 1},
    ],
    ids=lambda change: next(iter(change)),
)
def test_a_replayed_key_with_different_content_is_refused_and_names_the_key(
    post: Post, player: Any, other_player: Any, third_player: Any, change: dict[str, Any]
) -> None:
    leg = {
        "key": "t1",
        "kind": "adjustment",
        "debit": wallet_key(player.pk),
        "credit": wallet_key(other_player.pk),
        "amount": 300,
    }
    post(**leg)
    accounts = {"third": wallet_key(third_player.pk), "issuance": issuance_key("t1")}
    changed = {name: accounts.get(value, value) for name, value in change.items()}
    assert _refusal(lambda: post(**(leg | changed))) == ("LD002", "t1")
    assert Transfer.objects.filter(idempotency_key="t1").count() == 1


def test_an_overdraft_is_refused_with_the_balance_and_the_amount(
    post: Post, player: Any, other_player: Any
) -> None:
    refusal = _refusal(
        lambda: post("t1", "adjustment", wallet_key(player.pk), wallet_key(other_player.pk), 10_001)
    )
    assert refusal == ("LD001", "10000:10001")
    assert not Transfer.objects.filter(idempotency_key="t1").exists()
    assert selectors.balance(player) == 10_000


def test_only_issuance_may_pay_beyond_its_balance_and_new_accounts_open_on_first_use(
    post: Post, player: Any
) -> None:
    _id, created, debit_id, _credit = post(
        "mint", "adjustment", issuance_key("mint-new-shard"), wallet_key(player.pk), 5
    )
    issuance = Account.objects.get(pk=debit_id)
    assert created and issuance.kind == "issuance" and issuance.balance < 0
    _id, _created, _debit, credit_id = post("fee", "fee", wallet_key(player.pk), "house:3", 1)
    assert Account.objects.get(pk=credit_id).key == "house:3"


def test_an_account_key_of_no_known_kind_is_refused(post: Post, player: Any) -> None:
    sqlstate, _detail = _refusal(
        lambda: post("t1", "adjustment", wallet_key(player.pk), "nobody:1", 5)
    )
    assert sqlstate == "LD003"


def test_a_hold_opens_the_rounds_escrow_and_no_hold_is_taken_after_the_round_closed(
    post: Post, player: Any, other_player: Any
) -> None:
    hold = ("hold", wallet_key(player.pk), escrow_key(7), 500)
    post("hold:7:a", *hold, round_id=7, open_round=7)
    assert Account.objects.get(key=escrow_key(7)).balance == 500
    services.release_round_holds(7)
    late = ("hold", wallet_key(other_player.pk), escrow_key(7), 500)
    assert _refusal(lambda: post("hold:7:b", *late, round_id=7, open_round=7)) == (
        "LD004",
        "voided",
    )
    # The first hold's replay is still answered: the rule stops new money, not answers.
    assert post("hold:7:a", *hold, round_id=7, open_round=7)[1] is False


def test_a_transfer_is_reversed_at_most_once_even_in_raw_sql(
    player: Any, other_player: Any
) -> None:
    """reverses_id's unique index holds only the transfers that reverse one: still unique."""
    grant = Transfer.objects.get(idempotency_key=f"signup_grant:{player.pk}")
    args = ("reversal", wallet_key(player.pk), issuance_key("r"), 10)
    _single("r1", *args, reverses_id=grant.pk, reason="why")
    with pytest.raises(IntegrityError), transaction.atomic():
        _single("r2", *args, reverses_id=grant.pk, reason="why")


def test_the_transfer_table_indexes_optional_columns_only_where_they_are_set(db: None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'ledger_transfer'"
        )
        indexes = dict(cursor.fetchall())
    for name, column in [
        ("ledger_transfer_round", "round_id"),
        ("ledger_transfer_actor", "actor_id"),
        ("ledger_transfer_reverses_id_key", "reverses_id"),
    ]:
        assert indexes[name].endswith(f"WHERE ({column} IS NOT NULL)"), indexes[name]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN SELECT id FROM ledger_transfer WHERE round_id = 5")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "ledger_transfer_round" in plan
