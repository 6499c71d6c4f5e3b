"""The one write path: every transfer of every service is posted by ``post_transfers``.

A batch of legs, all or nothing, each with an idempotency key; every account it touches
locked in id order (docs/ledger.md, "Writing"). On PostgreSQL it is one call to a database
function; elsewhere (SQLite) the same steps in Python. ``_lock_round`` is the round
escrow's lock that every hold, settlement and void of a round (``rounds``) and every
correction of one (``remedies``) takes first.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, connection
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.errors import (
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    LedgerError,
    RoundAlreadyClosed,
)
from ledger.formats import Xu
from ledger.keys import escrow_key
from ledger.models import Account, AccountKind, Posting, RoundClosure, RoundOutcome, Transfer
from ledger.selectors import round_closure
from ledger.transactions import atomic_with_retry, retry_transient


def _new_account(key: str) -> Account:
    kind, _sep, owner = key.partition(":")
    number = int(owner)
    if kind == AccountKind.WALLET:
        return Account(key=key, kind=kind, user_id=number)
    if kind == AccountKind.ESCROW:
        return Account(key=key, kind=kind, round_id=number)
    if kind in {AccountKind.HOUSE, AccountKind.ISSUANCE}:
        return Account(key=key, kind=kind, shard=number)
    if kind in {AccountKind.POOL, AccountKind.PRIZE_HOLD}:
        return Account(key=key, kind=kind, tournament_id=number)
    raise LedgerError(f"unknown account key {key!r}")


@dataclass(frozen=True)
class Leg:
    """One transfer to post: accounts are named by key and created on first use."""

    kind: str
    debit: str
    credit: str
    amount: int
    key: str
    round_id: int | None = None
    actor_id: int | None = None
    reason: str = ""
    reverses_id: int | None = None

    def transfer_fields(self) -> dict[str, Any]:
        """What a Transfer row records of this leg, besides its accounts and time."""
        return {
            "idempotency_key": self.key,
            "kind": self.kind,
            "amount": self.amount,
            "round_id": self.round_id,
            "actor_id": self.actor_id,
            "reason": self.reason,
            "reverses_id": self.reverses_id,
        }


@dataclass(frozen=True)
class Posted:
    transfer: Transfer
    created: bool


# On PostgreSQL a batch is posted by one call to the ledger_post_transfers function and a
# single transfer by ledger_post_transfer (both in migration 0001_squashed_0012_prize_holds,
# which replaced 0003, 0008 and 0011, where they were written); both do what
# `_post_in_python` does in one round trip instead of seven. SQLite uses the Python path;
# tests run both on PostgreSQL and compare them.
USE_DATABASE_FUNCTION = True


def post_transfers(
    legs: Sequence[Leg], *, open_round: int | None = None, savepoint: bool = True
) -> list[Posted]:
    """Post several transfers atomically: all of them or none. Repeated keys are idempotent.

    With `open_round`, new transfers are posted only while that round is open (holds).
    `savepoint`: see `atomic_with_retry`.
    """
    _validate(legs)
    if _in_database() and not connection.in_atomic_block:
        # One statement is its own transaction: no BEGIN and COMMIT round trips.
        return retry_transient(lambda: _post_in_database(legs, open_round))
    return atomic_with_retry(lambda: _post_locked(legs, open_round), savepoint=savepoint)


def _in_database() -> bool:
    return USE_DATABASE_FUNCTION and connection.vendor == "postgresql"


def _validate(legs: Sequence[Leg]) -> None:
    keys = [leg.key for leg in legs]
    if len(set(keys)) != len(keys):
        raise LedgerError(_("The same idempotency key appears twice in one batch."))
    for leg in legs:
        if type(leg.amount) is not int or leg.amount <= 0:
            raise InvalidAmount()
        if leg.debit == leg.credit:
            raise LedgerError(_("A transfer needs two different accounts."))
        if not leg.key:
            raise LedgerError(_("A transfer needs an idempotency key."))


def _lock_accounts(keys: set[str]) -> dict[str, Account]:
    """Lock the accounts in id order, creating missing ones first.

    Locking every account a batch touches, always in the same order, stops two transfers
    that share accounts from interleaving their balance checks and from deadlocking.
    """
    rows = _select_for_update(keys)
    missing = keys - rows.keys()
    if missing:
        Account.objects.bulk_create(
            [_new_account(key) for key in sorted(missing)], ignore_conflicts=True
        )
        rows = _select_for_update(keys)
        if keys - rows.keys():
            raise LedgerError(f"cannot open accounts {sorted(keys - rows.keys())}")
    return rows


def _select_for_update(keys: set[str]) -> dict[str, Account]:
    locked = Account.objects.select_for_update().filter(key__in=keys).order_by("id")
    return {account.key: account for account in locked}


def _same(leg: Leg, transfer: Transfer) -> bool:
    return (
        transfer.kind == leg.kind
        and transfer.debit.key == leg.debit
        and transfer.credit.key == leg.credit
        and transfer.amount == leg.amount
        and transfer.round_id == leg.round_id
        and transfer.actor_id == leg.actor_id
        and transfer.reason == leg.reason
        and transfer.reverses_id == leg.reverses_id
    )


def _post_locked(legs: Sequence[Leg], open_round: int | None = None) -> list[Posted]:
    """Post inside the current transaction (the caller made one)."""
    if _in_database():
        return _post_in_database(legs, open_round)
    return _post_in_python(legs, open_round)


def _legs_json(legs: Sequence[Leg]) -> str:
    return json.dumps(
        [
            {
                "key": leg.key,
                "kind": str(leg.kind),
                "debit": leg.debit,
                "credit": leg.credit,
                "amount": leg.amount,
                "round_id": leg.round_id,
                "actor_id": leg.actor_id,
                "reason": leg.reason,
                "reverses_id": leg.reverses_id,
            }
            for leg in legs
        ]
    )


def _post_in_database(legs: Sequence[Leg], open_round: int | None) -> list[Posted]:
    now = timezone.now()
    try:
        with connection.cursor() as cursor:
            if len(legs) == 1:
                # One transfer (most calls): the lean function, same rules.
                leg = legs[0]
                cursor.execute(
                    "SELECT transfer_id, created, debit_id, credit_id"
                    " FROM ledger_post_transfer(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [
                        leg.key,
                        str(leg.kind),
                        leg.debit,
                        leg.credit,
                        leg.amount,
                        now,
                        leg.round_id,
                        leg.actor_id,
                        leg.reason,
                        leg.reverses_id,
                        open_round,
                    ],
                )
            else:
                cursor.execute(
                    "SELECT transfer_id, created, debit_id, credit_id"
                    " FROM ledger_post_transfers(%s::jsonb, %s, %s)",
                    [_legs_json(legs), now, open_round],
                )
            rows = cursor.fetchall()
    except DatabaseError as exc:
        _raise_refusal(exc, open_round)
        raise
    old_ids = [row[0] for row in rows if not row[1]]
    old = Transfer.objects.in_bulk(old_ids) if old_ids else {}
    results = []
    for leg, (transfer_id, created, debit_id, credit_id) in zip(legs, rows, strict=True):
        if not created:
            results.append(Posted(old[transfer_id], created=False))
            continue
        # Built from what was posted, saving a round trip to read it back.
        transfer = Transfer(
            id=transfer_id,
            debit_id=debit_id,
            credit_id=credit_id,
            created_at=now,
            **leg.transfer_fields(),
        )
        transfer._state.adding = False
        transfer._state.db = connection.alias
        results.append(Posted(transfer, created=True))
    return results


def _raise_refusal(exc: DatabaseError, open_round: int | None) -> None:
    """Turn the function's refusals (SQLSTATE class LD) into ledger errors."""
    cause = exc.__cause__
    sqlstate = getattr(cause, "sqlstate", None)
    detail = getattr(getattr(cause, "diag", None), "message_detail", None) or ""
    if sqlstate == "LD001":
        balance, _sep, amount = detail.partition(":")
        raise InsufficientFunds(balance=Xu(balance), amount=Xu(amount)) from None
    if sqlstate == "LD002":
        raise IdempotencyConflict(key=detail) from None
    if sqlstate == "LD003":
        raise LedgerError(f"cannot open accounts {detail}") from None
    if sqlstate == "LD004":
        raise RoundAlreadyClosed(round_id=open_round, outcome=RoundOutcome(detail).label) from None


def _post_in_python(legs: Sequence[Leg], open_round: int | None) -> list[Posted]:
    existing = {
        transfer.idempotency_key: transfer
        for transfer in Transfer.objects.select_related("debit", "credit").filter(
            idempotency_key__in=[leg.key for leg in legs]
        )
    }
    results: dict[int, Posted] = {}
    fresh: list[tuple[int, Leg]] = []
    for index, leg in enumerate(legs):
        found = existing.get(leg.key)
        if found is None:
            fresh.append((index, leg))
        elif _same(leg, found):
            results[index] = Posted(found, created=False)
        else:
            raise IdempotencyConflict(key=leg.key)
    if fresh:
        if open_round is not None:
            closure = _lock_round(open_round)
            if closure is not None:
                raise RoundAlreadyClosed(round_id=open_round, outcome=closure.get_outcome_display())
        _insert(fresh, results)
    return [results[index] for index in range(len(legs))]


def _insert(fresh: list[tuple[int, Leg]], results: dict[int, Posted]) -> None:
    accounts = _lock_accounts({leg.debit for _i, leg in fresh} | {leg.credit for _i, leg in fresh})
    now = timezone.now()
    transfers: list[Transfer] = []
    sides: list[tuple[Transfer, Account, int, int, int]] = []
    for index, leg in fresh:
        debit, credit = accounts[leg.debit], accounts[leg.credit]
        if debit.kind != AccountKind.ISSUANCE and debit.balance < leg.amount:
            raise InsufficientFunds(balance=Xu(debit.balance), amount=Xu(leg.amount))
        transfer = Transfer(debit=debit, credit=credit, created_at=now, **leg.transfer_fields())
        debit.balance -= leg.amount
        debit.version += 1
        sides.append((transfer, debit, -leg.amount, debit.balance, debit.version))
        credit.balance += leg.amount
        credit.version += 1
        sides.append((transfer, credit, leg.amount, credit.balance, credit.version))
        transfers.append(transfer)
        results[index] = Posted(transfer, created=True)
    Transfer.objects.bulk_create(transfers)
    Posting.objects.bulk_create(
        Posting(transfer=t, account=a, delta=d, balance_after=b, account_version=v)
        for t, a, d, b, v in sides
    )
    touched = {account.pk: account for _t, account, _d, _b, _v in sides}
    Account.objects.bulk_update(list(touched.values()), ["balance", "version"])


def _lock_round(round_id: int) -> RoundClosure | None:
    """Lock the round's escrow, then read how (whether) the round was closed.

    Every hold, settlement and void of a round takes this lock first, so a hold cannot
    slip in after the settlement read the holds, and a round is closed exactly once.
    The closure is read by a second statement on purpose: under READ COMMITTED only a
    statement that starts after the lock is granted sees a closure committed by the
    transaction we waited for (a join in the locking query would miss it).

    Every deal and settlement runs both: each is a statement written once (the ORM compiled
    them afresh each time, most of the settlement's ledger CPU in the worker: docs/deploy.md).
    An escrow not opened yet (a round's first hold) is opened, then locked.
    """
    key = escrow_key(round_id)
    if not _lock_escrow(key):
        Account.objects.bulk_create([_new_account(key)], ignore_conflicts=True)
        if not _lock_escrow(key):
            raise LedgerError(f"cannot open account {key}")
    return round_closure(round_id)


def _lock_escrow(key: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(_ESCROW_LOCK[connection.features.has_select_for_update], [key])
        return cursor.fetchone() is not None


_ESCROW_LOCK = {
    lock: f'SELECT "{Account._meta.pk.column}" FROM "{Account._meta.db_table}"'
    f' WHERE "{Account._meta.get_field("key").column}" = %s' + (" FOR UPDATE" if lock else "")
    for lock in (False, True)
}
"""The escrow account's lock (SQLite has no ``FOR UPDATE``; its writer lock serializes)."""
