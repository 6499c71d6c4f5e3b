"""Reads used in more than one place: balances, statements, and the house's figures."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet, Sum

from ledger.keys import bonus_day, daily_bonus_key, wallet_key
from ledger.models import (
    Account,
    AccountKind,
    LedgerCheckRun,
    Posting,
    RoundClosure,
    Transfer,
    TransferKind,
)


def balance(user: Any) -> int:
    """The user's wallet balance in xu (0 before the wallet exists)."""
    return balances([user.pk])[user.pk]


def balances(user_ids: list[int]) -> dict[int, int]:
    """Several users' wallet balances in one query (0 for a wallet not yet opened)."""
    keys = {wallet_key(user_id): user_id for user_id in user_ids}
    found = dict(Account.objects.filter(key__in=keys).values_list("key", "balance"))
    return {user_id: int(found.get(key) or 0) for key, user_id in keys.items()}


def statement(user: Any, kind: str | None = None) -> QuerySet[Posting]:
    """The user's wallet postings, newest first; `balance_after` is the running balance."""
    postings = (
        Posting.objects.filter(account__key=wallet_key(user.pk))
        .select_related("transfer")
        .order_by("-account_version")
    )
    if kind:
        postings = postings.filter(transfer__kind=kind)
    return postings


def account_statement(account: Account) -> QuerySet[Posting]:
    return (
        Posting.objects.filter(account=account)
        .select_related("transfer", "transfer__actor")
        .order_by("-account_version")
    )


def _total(kind: str) -> int:
    return int(Account.objects.filter(kind=kind).aggregate(total=Sum("balance"))["total"] or 0)


def house_revenue() -> int:
    """Fees collected, summed over the house shards."""
    return _total(AccountKind.HOUSE)


def escrow_outstanding() -> int:
    """Xu held in open rounds."""
    return _total(AccountKind.ESCROW)


def wallet_total() -> int:
    return _total(AccountKind.WALLET)


def circulation() -> int:
    """Every xu that exists: minted from issuance and not burned (wallets, escrow, house)."""
    return -_total(AccountKind.ISSUANCE)


def bots_net_result() -> int:
    """What bots won (positive) or lost at the tables: their round flows, fees included."""
    total = Posting.objects.filter(
        account__is_bot=True,
        transfer__kind__in=[TransferKind.HOLD, TransferKind.SETTLE, TransferKind.RELEASE],
    ).aggregate(total=Sum("delta"))["total"]
    return int(total or 0)


def daily_bonus_claimed(user: Any, now: Any = None) -> bool:
    return Transfer.objects.filter(
        idempotency_key=daily_bonus_key(user.pk, bonus_day(now))
    ).exists()


def holds_of_round(round_id: int) -> dict[int, int]:
    """{user id: xu held} for a round."""
    rows = (
        Transfer.objects.filter(kind=TransferKind.HOLD, round_id=round_id)
        .values_list("debit__user_id")
        .annotate(total=Sum("amount"))
    )
    return {int(user_id): int(total) for user_id, total in rows}


def round_closure(round_id: int) -> RoundClosure | None:
    return RoundClosure.objects.filter(round_id=round_id).first()


def last_check() -> LedgerCheckRun | None:
    return LedgerCheckRun.objects.order_by("-created_at").first()


def open_round_count() -> int:
    """Rounds holding xu that are not closed yet."""
    return Account.objects.filter(kind=AccountKind.ESCROW, balance__gt=0).count()
