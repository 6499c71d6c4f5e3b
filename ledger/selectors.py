"""Reads used in more than one place: balances, statements, and the house's figures."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Case, Count, F, Max, QuerySet, Sum, Value, When

from core.compiled import Compiled
from ledger.keys import bonus_day, daily_bonus_key, pool_key, wallet_key
from ledger.models import (
    ROUND_KINDS,
    Account,
    AccountKind,
    LedgerCheckRun,
    Posting,
    PrizeHold,
    PrizeHoldDecision,
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
    if not keys:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_balances_sql(len(keys)), list(keys))
        found = dict(cursor.fetchall())
    return {user_id: int(found.get(key) or 0) for key, user_id in keys.items()}


@functools.cache
def _balances_sql(count: int) -> str:
    """``balances``' statement for ``count`` wallets, written once for each count (every
    sit-down, snapshot and deal reads balances: the ORM compiled it afresh each time)."""
    meta = Account._meta
    key, balance = meta.get_field("key").column, meta.get_field("balance").column
    marks = ", ".join(["%s"] * count)
    return f'SELECT "{key}", "{balance}" FROM "{meta.db_table}" WHERE "{key}" IN ({marks})'


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


# What a player may filter their statement by: their own kinds, a round's movements as one.
# Bot top-ups, house issuance and fees never touch a player's wallet on their own.
PLAYER_FILTERS = ("rounds", "signup_grant", "daily_bonus", "compensation", "adjustment", "reversal")


@dataclass
class StatementLine:
    """One line of a player's statement: a round (its movements added up) or one transfer."""

    round_id: int | None
    net: int
    balance_after: int
    time: datetime
    kind: str
    """The transfer kind of a single movement; "round" for a round's line."""
    label: str
    reason: str = ""
    postings: list[Posting] = field(default_factory=list)
    """A round's movements, oldest first (the details shown on demand)."""


def statement_lines(user: Any, kind: str = "") -> QuerySet[Any]:
    """The user's statement grouped: one row per round, one per other transfer, newest first.

    Rows are dicts (``round_id``, ``solo``, ``net``, ``last``); ``statement_page`` turns a page
    of them into ``StatementLine``s. Grouping in the database keeps a round on one page.
    """
    postings = Posting.objects.filter(account__key=wallet_key(user.pk))
    if kind == "rounds":
        postings = postings.filter(transfer__kind__in=ROUND_KINDS)
    elif kind:
        postings = postings.filter(transfer__kind=kind)
    return (
        postings.annotate(
            solo=Case(When(transfer__round_id__isnull=True, then=F("pk")), default=Value(0))
        )
        .values("transfer__round_id", "solo")
        .annotate(net=Sum("delta"), last=Max("account_version"), count=Count("pk"))
        .order_by("-last")
    )


def statement_page(user: Any, rows: Any) -> list[StatementLine]:
    """The lines of one page of ``statement_lines`` with their movements (two queries)."""
    rows = list(rows)
    wallet = Posting.objects.filter(account__key=wallet_key(user.pk)).select_related("transfer")
    last = {
        p.account_version: p for p in wallet.filter(account_version__in=[r["last"] for r in rows])
    }
    round_ids = [r["transfer__round_id"] for r in rows if r["transfer__round_id"] is not None]
    by_round: dict[int, list[Posting]] = {}
    for posting in wallet.filter(transfer__round_id__in=round_ids).order_by("account_version"):
        by_round.setdefault(int(posting.transfer.round_id or 0), []).append(posting)
    lines = []
    for row in rows:
        newest = last[row["last"]]
        round_id = row["transfer__round_id"]
        if round_id is None:
            transfer = newest.transfer
            lines.append(
                StatementLine(
                    None,
                    int(row["net"]),
                    newest.balance_after,
                    transfer.created_at,
                    transfer.kind,
                    str(transfer.get_kind_display()),
                    transfer.reason,
                )
            )
        else:
            lines.append(
                StatementLine(
                    int(round_id),
                    int(row["net"]),
                    newest.balance_after,
                    newest.transfer.created_at,
                    "round",
                    "",
                    postings=by_round.get(int(round_id), []),
                )
            )
    return lines


def in_play(user: Any) -> int:
    """Xu the user has held for rounds not settled yet: the stake at risk, not a loss.

    A player is in one round at a time, so only their latest holds can still be open.
    """
    recent = list(
        Transfer.objects.filter(kind=TransferKind.HOLD, debit__key=wallet_key(user.pk))
        .order_by("-id")
        .values_list("round_id", "amount")[:4]
    )
    open_ids = set(
        Account.objects.filter(
            kind=AccountKind.ESCROW, round_id__in=[r for r, _a in recent], balance__gt=0
        ).values_list("round_id", flat=True)
    )
    return sum(int(amount) for round_id, amount in recent if round_id in open_ids)


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
    """{user id: xu held} for a round. Every settlement and void reads it: the SQL is
    written once (``_HOLDS``; the ORM compiled its join and grouping afresh each time)."""
    with connection.cursor() as cursor:
        cursor.execute(_HOLDS, [TransferKind.HOLD.value, round_id])
        return {int(user_id): int(total) for user_id, total in cursor.fetchall()}


def _holds_sql() -> str:
    transfers, accounts = Transfer._meta, Account._meta
    debit = transfers.get_field("debit").column
    user = accounts.get_field("user").column
    return (
        f'SELECT a."{user}", SUM(t."{transfers.get_field("amount").column}")'
        f' FROM "{transfers.db_table}" t'
        f' INNER JOIN "{accounts.db_table}" a ON a."{accounts.pk.column}" = t."{debit}"'
        f' WHERE t."{transfers.get_field("kind").column}" = %s'
        f' AND t."{transfers.get_field("round_id").column}" = %s'
        f' GROUP BY a."{user}"'
    )


_HOLDS = _holds_sql()


def round_closure(round_id: int) -> RoundClosure | None:
    """How the round's escrow was emptied, or None while it is open. Every deal and
    settlement reads it (the ledger's round lock): compiled once (``core.compiled``)."""
    return _CLOSURE.first(round_id)


_CLOSURE = Compiled(
    lambda round_id: RoundClosure.objects.filter(round_id=round_id).order_by("pk")[:1]
)


def last_check() -> LedgerCheckRun | None:
    return LedgerCheckRun.objects.order_by("-created_at").first()


def open_round_count() -> int:
    """Rounds holding xu that are not closed yet."""
    return Account.objects.filter(kind=AccountKind.ESCROW, balance__gt=0).count()


def pool_balance(tournament_id: int) -> int:
    """What a tournament's pool holds now (0 before its first buy-in)."""
    found = Account.objects.filter(key=pool_key(tournament_id)).values_list("balance", flat=True)
    return int(found.first() or 0)


# --- Prize holds (ledger.services.hold_prizes) -----------------------------------------


def prize_hold(tournament_id: int) -> PrizeHold | None:
    """The tournament's prizes held for review, if they were (with its decision, if any)."""
    return PrizeHold.objects.filter(tournament_id=tournament_id).first()


def hold_decision(hold: PrizeHold) -> PrizeHoldDecision | None:
    return PrizeHoldDecision.objects.filter(hold=hold).select_related("actor").first()


def prize_review(tournament_id: int) -> dict[str, Any] | None:
    """What a tournament's page says of its prizes when they were held: ``status`` is
    ``pending`` (under review), ``released`` or ``returned``. None: never held."""
    hold = prize_hold(tournament_id)
    if hold is None:
        return None
    decision = hold_decision(hold)
    return {
        "status": decision.outcome if decision is not None else "pending",
        "held_at": hold.created_at.isoformat(),
        "decided_at": decision.created_at.isoformat() if decision is not None else None,
    }


def prize_holds(*, pending: bool | None = None) -> list[PrizeHold]:
    """Holds, newest first, each with ``decided`` (its decision or None) set."""
    holds = list(PrizeHold.objects.order_by("-created_at", "-pk"))
    decisions = {
        d.hold_id: d
        for d in PrizeHoldDecision.objects.filter(hold__in=holds).select_related("actor")
    }
    for hold in holds:
        hold.decided = decisions.get(hold.pk)  # type: ignore[attr-defined]
    if pending is not None:
        holds = [h for h in holds if (h.decided is None) == pending]  # type: ignore[attr-defined]
    return holds


def prize_hold_entrants(tournament_id: int) -> set[int]:
    """Who bought in to the tournament (and was not refunded) or is owed a held prize."""
    hold = prize_hold(tournament_id)
    owed = {int(user) for user in (hold.prizes if hold is not None else {})}
    bought = set(
        Transfer.objects.filter(
            kind=TransferKind.BUY_IN, idempotency_key__startswith=f"buy_in:{tournament_id}:"
        ).values_list("debit__user_id", flat=True)
    )
    return owed | {int(u) for u in bought if u is not None}
