"""Every xu movement goes through here, with an idempotency key, inside one transaction.

The games app calls `hold`, `settle_round` and `void_round` inside its own transaction;
they use savepoints there and retry transient failures only when called on their own.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from decimal import ROUND_FLOOR, Decimal
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.errors import TextRefused
from accounts.roles import is_admin
from accounts.text import clean_text
from ledger.errors import (
    AlreadyClaimedToday,
    AlreadyReversed,
    HoldAlreadyDecided,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidSettlement,
    LedgerError,
    NeedsSecondAdmin,
    NoPrizeHold,
    NotReversible,
    PoolAlreadyClosed,
    ReasonRequired,
    RoundAlreadyClosed,
    RoundSettledDifferently,
    SelfPayment,
    StaffOnly,
)
from ledger.formats import Xu
from ledger.keys import (
    bonus_day,
    daily_bonus_key,
    escrow_key,
    house_key,
    issuance_key,
    pool_key,
    prize_hold_key,
    wallet_key,
)
from ledger.models import (
    ROUND_KINDS,
    Account,
    AccountKind,
    HoldOutcome,
    LedgerCheckRun,
    PoolClosure,
    PoolOutcome,
    Posting,
    PrizeHold,
    PrizeHoldDecision,
    RoundClosure,
    RoundOutcome,
    Transfer,
    TransferKind,
)
from ledger.selectors import holds_of_round
from ledger.signals import prize_hold_changed, send_on_commit
from ledger.transactions import atomic_with_retry, retry_transient

logger = logging.getLogger(__name__)

SIGNUP_GRANT_XU: int = settings.SIGNUP_GRANT_XU
DAILY_BONUS_XU = 1_000
CHECK_RUNS_KEPT = timedelta(days=30)


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


# --- The one write path -----------------------------------------------------------------


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


# On PostgreSQL a batch is posted by one call to the ledger_post_transfers function
# (migrations 0003, 0008) and a single transfer by ledger_post_transfer (0010); both do what
# `_post_in_python` does in one round trip instead of seven. SQLite uses the Python path;
# tests run both on PostgreSQL and compare them.
USE_DATABASE_FUNCTION = True


def post_transfers(legs: Sequence[Leg], *, open_round: int | None = None) -> list[Posted]:
    """Post several transfers atomically: all of them or none. Repeated keys are idempotent.

    With `open_round`, new transfers are posted only while that round is open (holds).
    """
    _validate(legs)
    if _in_database() and not connection.in_atomic_block:
        # One statement is its own transaction: no BEGIN and COMMIT round trips.
        return retry_transient(lambda: _post_in_database(legs, open_round))
    return atomic_with_retry(lambda: _post_locked(legs, open_round))


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
                # One transfer (most calls): the lean function, same rules (migration 0010).
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


# --- Supply: grants, bonuses, staff adjustments, bots, reversals ------------------------


def grant_signup_bonus(user: Any) -> Transfer:
    """The welcome grant, once per user (called inside the sign-up transaction)."""
    key = f"signup_grant:{user.pk}"
    leg = Leg(
        kind=TransferKind.SIGNUP_GRANT,
        debit=issuance_key(key),
        credit=wallet_key(user.pk),
        amount=SIGNUP_GRANT_XU,
        key=key,
    )
    return post_transfers([leg])[0].transfer


def claim_daily_bonus(user: Any, *, now: Any = None) -> Transfer:
    """Credit today's bonus; a second claim the same Vietnamese calendar day is refused.

    The key names the day, so a double click posts once and the second click is told so.
    """
    key = daily_bonus_key(user.pk, bonus_day(now))
    leg = Leg(
        kind=TransferKind.DAILY_BONUS,
        debit=issuance_key(key),
        credit=wallet_key(user.pk),
        amount=DAILY_BONUS_XU,
        key=key,
    )
    posted = post_transfers([leg])[0]
    if not posted.created:
        raise AlreadyClaimedToday()
    return posted.transfer


def _require_staff(actor: Any) -> None:
    # An admin in good standing: a suspended or deactivated one has no staff powers.
    if actor is None or not is_admin(actor):
        raise StaffOnly()


def _refuse_self_payment(actor: Any, credit: str) -> None:
    """Nobody moves xu into their own wallet by a staff action (separation of duties)."""
    if credit == wallet_key(actor.pk):
        raise SelfPayment()


def _require_reason(reason: str) -> str:
    """A staff reason through the text policy (accounts.text: nothing invisible)."""
    try:
        reason = clean_text(reason or "", multiline=True)
    except TextRefused as exc:
        raise LedgerError(exc.template, **exc.params) from exc
    if not reason:
        raise ReasonRequired()
    return reason


def adjust_balance(
    user: Any, amount: int, *, reason: str, actor: Any, key: str | None = None
) -> Transfer:
    """A staff correction: positive mints into the wallet, negative burns (never overdraws)."""
    _require_staff(actor)
    reason = _require_reason(reason)
    if type(amount) is not int or amount == 0:
        raise InvalidAmount()
    key = key or f"adjustment:{uuid.uuid4()}"
    wallet, issuance = wallet_key(user.pk), issuance_key(key)
    debit, credit = (issuance, wallet) if amount > 0 else (wallet, issuance)
    _refuse_self_payment(actor, credit)
    if amount > 0:
        _within_solo_limit(actor, amount)
    leg = Leg(
        kind=TransferKind.ADJUSTMENT,
        debit=debit,
        credit=credit,
        amount=abs(amount),
        key=key,
        actor_id=actor.pk,
        reason=reason,
    )
    return post_transfers([leg])[0].transfer


def _within_solo_limit(actor: Any, amount: int) -> None:
    """One admin alone mints at most MODERATION_ADMIN_SOLO_LIMIT_XU into wallets in 24 hours;
    more goes through a compensation that a second admin approves (moderation)."""
    limit = settings.MODERATION_ADMIN_SOLO_LIMIT_XU
    since = timezone.now() - timedelta(hours=24)
    minted = Transfer.objects.filter(
        kind=TransferKind.ADJUSTMENT,
        actor_id=actor.pk,
        debit__kind=AccountKind.ISSUANCE,
        created_at__gte=since,
    ).aggregate(total=Sum("amount"))["total"]
    if (minted or 0) + amount > limit:
        raise NeedsSecondAdmin(limit=Xu(limit))


def flag_bot(user: Any) -> Account:
    """Mark a user's wallet as a bot's, so the dashboard can show the bots' net result."""

    def run() -> Account:
        wallet = _lock_accounts({wallet_key(user.pk)})[wallet_key(user.pk)]
        if not wallet.is_bot:
            wallet.is_bot = True
            wallet.save(update_fields=["is_bot"])
        return wallet

    return atomic_with_retry(run)


def top_up_bot(user: Any, amount: int, *, key: str) -> Transfer:
    """Mint xu into a bot's wallet (the bots feature calls this); flags the wallet as a bot."""
    flag_bot(user)
    leg = Leg(
        kind=TransferKind.BOT_TOPUP,
        debit=issuance_key(key),
        credit=wallet_key(user.pk),
        amount=amount,
        key=key,
    )
    return post_transfers([leg])[0].transfer


def reverse_transfer(transfer: Transfer, *, reason: str, actor: Any) -> Transfer:
    """Undo a transfer with a new one in the other direction; a transfer is reversed once.

    Round flows (holds, settlements, releases, fees) are closed by their round and cannot
    be reversed; correct a player's result with an adjustment instead.
    """
    _require_staff(actor)
    reason = _require_reason(reason)
    if transfer.kind in ROUND_KINDS:
        raise NotReversible(detail=_("round transfers are final; use an adjustment"))
    if transfer.kind == TransferKind.REVERSAL:
        raise NotReversible(detail=_("a reversal cannot itself be reversed"))
    _refuse_self_payment(actor, transfer.debit.key)
    leg = Leg(
        kind=TransferKind.REVERSAL,
        debit=transfer.credit.key,
        credit=transfer.debit.key,
        amount=transfer.amount,
        key=f"reversal:{transfer.pk}",
        actor_id=actor.pk,
        reason=reason,
        reverses_id=transfer.pk,
    )
    try:
        return post_transfers([leg])[0].transfer
    except IdempotencyConflict:
        raise AlreadyReversed(transfer_id=transfer.pk) from None


# --- Rounds: hold, settle, void ---------------------------------------------------------


def _lock_round(round_id: int) -> RoundClosure | None:
    """Lock the round's escrow, then read how (whether) the round was closed.

    Every hold, settlement and void of a round takes this lock first, so a hold cannot
    slip in after the settlement read the holds, and a round is closed exactly once.
    The closure is read by a second statement on purpose: under READ COMMITTED only a
    statement that starts after the lock is granted sees a closure committed by the
    transaction we waited for (a join in the locking query would miss it).
    """
    _lock_accounts({escrow_key(round_id)})
    return RoundClosure.objects.filter(round_id=round_id).first()


def hold(round_id: int, user: Any, amount: int) -> Transfer:
    """Move `amount` xu from the user's wallet into the round's escrow (once per player)."""
    return hold_many(round_id, [(user, amount)])[0]


def hold_many(round_id: int, holds: Sequence[tuple[Any, int]]) -> list[Transfer]:
    """Hold several players' stakes for one round at once: all of them or none."""
    if type(round_id) is not int:
        raise LedgerError("round_id must be an int")
    legs = [
        Leg(
            kind=TransferKind.HOLD,
            debit=wallet_key(user.pk),
            credit=escrow_key(round_id),
            amount=amount,
            key=f"hold:{round_id}:{user.pk}",
            round_id=round_id,
        )
        for user, amount in holds
    ]
    if not legs:
        return []
    return [posted.transfer for posted in post_transfers(legs, open_round=round_id)]


def fee_on_gain(gain: int, percent: Decimal) -> int:
    """The house fee on one winner's gain: rounded down to whole xu, never above the rate."""
    if gain <= 0 or percent <= 0:
        return 0
    return int((Decimal(gain) * percent / 100).to_integral_value(rounding=ROUND_FLOOR))


def _normalized_deltas(deltas: Mapping[int, int], holds: Mapping[int, int]) -> dict[str, int]:
    result = {str(user_id): 0 for user_id in holds}
    for user_id, delta in deltas.items():
        if type(delta) is not int or isinstance(user_id, bool):
            raise InvalidSettlement(detail=_("amounts must be whole numbers of xu"))
        result[str(int(user_id))] = delta
    return dict(sorted(result.items(), key=lambda item: int(item[0])))


def settle_round(round_id: int, deltas: Mapping[int, int]) -> RoundClosure:
    """Pay out a round from its escrow in one transaction.

    `deltas` maps user id to the player's signed net xu for the round (sum zero; a loss
    never exceeds the hold; players who held but are missing count as zero). Each player
    gets back hold + delta, less the house fee on a gain. The escrow ends empty. Settling
    again with the same deltas returns the first settlement; different deltas are refused.
    """
    percent = Decimal(str(settings.HOUSE_FEE_PERCENT))

    def run() -> RoundClosure:
        closure = _lock_round(round_id)
        holds = holds_of_round(round_id)
        normalized = _normalized_deltas(deltas, holds)
        if closure is not None:
            if closure.outcome == RoundOutcome.SETTLED and closure.deltas == normalized:
                return closure
            if closure.outcome == RoundOutcome.SETTLED:
                raise RoundSettledDifferently(round_id=round_id)
            raise RoundAlreadyClosed(round_id=round_id, outcome=closure.get_outcome_display())
        if sum(normalized.values()) != 0:
            raise InvalidSettlement(detail=_("the amounts do not add up to zero"))
        for user_key, delta in normalized.items():
            held = holds.get(int(user_key))
            if held is None:
                raise InvalidSettlement(
                    detail=_("player %(user)s has no stake in this round") % {"user": user_key}
                )
            if -delta > held:
                raise InvalidSettlement(
                    detail=_("player %(user)s would lose more than their stake")
                    % {"user": user_key}
                )
        legs: list[Leg] = []
        total_fee = 0
        for user_key, delta in normalized.items():
            fee = fee_on_gain(delta, percent)
            total_fee += fee
            payout = holds[int(user_key)] + delta - fee
            if payout > 0:
                legs.append(
                    Leg(
                        kind=TransferKind.SETTLE,
                        debit=escrow_key(round_id),
                        credit=wallet_key(int(user_key)),
                        amount=payout,
                        key=f"settle:{round_id}:{user_key}",
                        round_id=round_id,
                    )
                )
        if total_fee:
            fee_key = f"fee:{round_id}"
            legs.append(
                Leg(
                    kind=TransferKind.FEE,
                    debit=escrow_key(round_id),
                    credit=house_key(fee_key),
                    amount=total_fee,
                    key=fee_key,
                    round_id=round_id,
                )
            )
        _post_locked(legs)
        return _close(round_id, RoundOutcome.SETTLED, normalized, total_fee, str(percent))

    return atomic_with_retry(run)


def void_round(round_id: int) -> RoundClosure:
    """Cancel a round: every hold goes back to its wallet. Voiding twice changes nothing."""

    def run() -> RoundClosure:
        closure = _lock_round(round_id)
        if closure is not None:
            if closure.outcome == RoundOutcome.VOIDED:
                return closure
            raise RoundAlreadyClosed(round_id=round_id, outcome=closure.get_outcome_display())
        legs = [
            Leg(
                kind=TransferKind.RELEASE,
                debit=escrow_key(round_id),
                credit=wallet_key(user_id),
                amount=held,
                key=f"release:{round_id}:{user_id}",
                round_id=round_id,
            )
            for user_id, held in sorted(holds_of_round(round_id).items())
        ]
        if legs:
            _post_locked(legs)
        return _close(round_id, RoundOutcome.VOIDED, {}, 0, "0")

    return atomic_with_retry(run)


def _close(
    round_id: int, outcome: str, deltas: dict[str, int], fee: int, percent: str
) -> RoundClosure:
    escrow = Account.objects.get(key=escrow_key(round_id))
    if escrow.balance != 0:  # unreachable when holds and deltas were validated
        raise LedgerError(f"escrow of round {round_id} would keep {escrow.balance} xu")
    return RoundClosure.objects.create(
        round_id=round_id, outcome=outcome, deltas=deltas, fee=fee, fee_percent=percent
    )


# --- Tournament pools: buy-ins, refunds, prizes ---------------------------------------
#
# A tournament's buy-ins sit in its pool (``pool:<tournament id>``) until the pool is
# closed, once: by paying prizes that add up to exactly what it holds, or by refunding
# every buy-in still in it (a tournament cancelled before it started). Like a round's
# escrow, the pool is locked first, so a buy-in cannot slip in after the pool was closed.
# An entrant may register, withdraw (refunded) and register again: ``entry`` numbers
# their registrations, so each buy-in and its refund have their own keys.


def _lock_pool(tournament_id: int, *others: str) -> tuple[Account, PoolClosure | None]:
    """Lock the pool (creating it), then the other accounts; read the closure after."""
    if type(tournament_id) is not int:
        raise LedgerError("tournament_id must be an int")
    pool = pool_key(tournament_id)
    accounts = _lock_accounts({pool})
    if others:
        _lock_accounts(set(others))
    return accounts[pool], PoolClosure.objects.filter(tournament_id=tournament_id).first()


def buy_in(tournament_id: int, user: Any, amount: int, *, entry: int = 1) -> Transfer:
    """Move ``amount`` xu from the user's wallet into the tournament's pool, once per entry.

    Refused (``PoolAlreadyClosed``) once the pool is closed; ``InsufficientFunds`` when the
    wallet cannot pay."""
    leg = Leg(
        kind=TransferKind.BUY_IN,
        debit=wallet_key(user.pk),
        credit=pool_key(tournament_id),
        amount=amount,
        key=f"buy_in:{tournament_id}:{user.pk}:{entry}",
    )
    _validate([leg])

    def run() -> Transfer:
        _pool, closure = _lock_pool(tournament_id, leg.debit)
        if closure is not None:
            raise PoolAlreadyClosed(tournament_id=tournament_id)
        return _post_locked([leg])[0].transfer

    return atomic_with_retry(run)


def _refund_leg(buy: Transfer) -> Leg:
    return Leg(
        kind=TransferKind.BUY_IN_REFUND,
        debit=buy.credit.key,
        credit=buy.debit.key,
        amount=buy.amount,
        key=f"buy_in_refund:{buy.idempotency_key.removeprefix('buy_in:')}",
    )


def refund_buy_in(tournament_id: int, user: Any, *, entry: int = 1) -> Transfer | None:
    """Give back one entry's buy-in (the entrant withdrew before the start). Exactly what
    was paid goes back; a second call returns the first refund. None: nothing was paid."""

    def run() -> Transfer | None:
        _pool, closure = _lock_pool(tournament_id, wallet_key(user.pk))
        buy = (
            Transfer.objects.select_related("debit", "credit")
            .filter(idempotency_key=f"buy_in:{tournament_id}:{user.pk}:{entry}")
            .first()
        )
        if buy is None:
            return None
        leg = _refund_leg(buy)
        if closure is not None:
            # A refunded pool gave this buy-in back already; a paid one owes it no more.
            found = Transfer.objects.filter(idempotency_key=leg.key).first()
            if found is not None:
                return found
            raise PoolAlreadyClosed(tournament_id=tournament_id)
        return _post_locked([leg])[0].transfer

    return atomic_with_retry(run)


def _unrefunded_buy_ins(tournament_id: int) -> list[Transfer]:
    transfers = Transfer.objects.select_related("debit", "credit").filter(
        idempotency_key__startswith=f"buy_in:{tournament_id}:"
    )
    refunded = set(
        Transfer.objects.filter(
            idempotency_key__startswith=f"buy_in_refund:{tournament_id}:"
        ).values_list("idempotency_key", flat=True)
    )
    return [t for t in transfers.order_by("pk") if _refund_leg(t).key not in refunded]


def refund_pool(tournament_id: int) -> PoolClosure:
    """Cancel the tournament's pool: every buy-in still in it goes back, and the pool
    closes (no buy-in afterwards). Refunding twice changes nothing."""

    def run() -> PoolClosure:
        _pool, closure = _lock_pool(tournament_id)
        if closure is not None:
            if closure.outcome == PoolOutcome.REFUNDED:
                return closure
            raise PoolAlreadyClosed(tournament_id=tournament_id)
        legs = [_refund_leg(t) for t in _unrefunded_buy_ins(tournament_id)]
        if legs:
            _lock_accounts({leg.credit for leg in legs})
            _post_locked(legs)
        return _close_pool(tournament_id, PoolOutcome.REFUNDED, {})

    return atomic_with_retry(run)


def _normalized_prizes(prizes: Mapping[int, int]) -> dict[str, int]:
    normalized: dict[str, int] = {}
    for user_id, amount in prizes.items():
        if type(amount) is not int or amount < 0 or isinstance(user_id, bool):
            raise InvalidSettlement(detail=_("prizes must be whole numbers of xu"))
        if amount:
            normalized[str(int(user_id))] = amount
    return dict(sorted(normalized.items(), key=lambda item: int(item[0])))


def pay_prizes(tournament_id: int, prizes: Mapping[int, int]) -> PoolClosure:
    """Pay the tournament's prizes ({user id: xu}) out of its pool and close it.

    The prizes must add up to exactly what the pool holds (the pool nets to zero). Paying
    again with the same prizes returns the first closure; different prizes are refused.
    """
    normalized = _normalized_prizes(prizes)

    def run() -> PoolClosure:
        pool, closure = _lock_pool(tournament_id, *(wallet_key(int(user)) for user in normalized))
        if closure is not None:
            if closure.outcome == PoolOutcome.PAID and closure.prizes == normalized:
                return closure
            raise PoolAlreadyClosed(tournament_id=tournament_id)
        if sum(normalized.values()) != pool.balance:
            raise InvalidSettlement(
                detail=_("the prizes add up to %(prizes)s xu but the pool holds %(pool)s xu")
                % {"prizes": sum(normalized.values()), "pool": pool.balance}
            )
        legs = [
            Leg(
                kind=TransferKind.PRIZE,
                debit=pool.key,
                credit=wallet_key(int(user)),
                amount=amount,
                key=f"prize:{tournament_id}:{user}",
            )
            for user, amount in normalized.items()
        ]
        if legs:
            _post_locked(legs)
        return _close_pool(tournament_id, PoolOutcome.PAID, normalized)

    return atomic_with_retry(run)


def _close_pool(tournament_id: int, outcome: str, prizes: dict[str, int]) -> PoolClosure:
    left = Account.objects.get(key=pool_key(tournament_id)).balance
    if left != 0:  # unreachable when the prizes were checked against the pool
        raise LedgerError(f"pool of tournament {tournament_id} would keep {left} xu")
    return PoolClosure.objects.create(tournament_id=tournament_id, outcome=outcome, prizes=prizes)


# --- Prize holds: a tournament's prizes kept for a moderator ---------------------------
#
# When the collusion signals fire among a finishing tournament's entrants, its prizes are
# not paid: the pool moves whole into the tournament's hold account (``prize_hold:<t>``,
# one ``prize_hold`` transfer) and closes ``held`` with the prizes it would have paid
# recorded (``PoolClosure.prizes`` and ``PrizeHold``). A moderator then decides, once:
# release (the recorded prizes, ``prize`` transfers from the hold, keys
# ``prize:<t>:<user>``) or return the buy-ins (each buy-in still in it back to whoever paid
# it, ``buy_in_refund`` transfers from the hold, the refund keys). The hold account is
# locked first, so two decisions (a double click, two moderators) meet one after the
# other and the second finds the first; the hold ends empty, and ``ledger_check`` accounts
# for every xu of it. Who may decide is moderation's rule; the ledger insists on an actor
# and a reason.


def hold_prizes(
    tournament_id: int,
    prizes: Mapping[int, int],
    *,
    findings: Sequence[Mapping[str, Any]],
    title: str,
    url: str,
) -> PrizeHold:
    """Hold the tournament's prizes ({user id: xu}, adding up to the pool) for review:
    the pool moves into the hold and closes ``held``. Holding again with the same prizes
    returns the first hold; a pool closed otherwise is refused (``PoolAlreadyClosed``)."""
    normalized = _normalized_prizes(prizes)
    hold_key = prize_hold_key(tournament_id)

    def run() -> PrizeHold:
        pool, closure = _lock_pool(tournament_id, hold_key)
        if closure is not None:
            if closure.outcome == PoolOutcome.HELD and closure.prizes == normalized:
                return PrizeHold.objects.get(tournament_id=tournament_id)
            raise PoolAlreadyClosed(tournament_id=tournament_id)
        if sum(normalized.values()) != pool.balance or pool.balance <= 0:
            raise InvalidSettlement(
                detail=_("the prizes add up to %(prizes)s xu but the pool holds %(pool)s xu")
                % {"prizes": sum(normalized.values()), "pool": pool.balance}
            )
        amount = pool.balance
        _post_locked(
            [
                Leg(
                    kind=TransferKind.PRIZE_HOLD,
                    debit=pool.key,
                    credit=hold_key,
                    amount=amount,
                    key=f"prize_hold:{tournament_id}",
                )
            ]
        )
        _close_pool(tournament_id, PoolOutcome.HELD, normalized)
        hold = PrizeHold.objects.create(
            tournament_id=tournament_id,
            title=title[:120],
            url=url[:200],
            prizes=normalized,
            findings=[dict(finding) for finding in findings],
            amount=amount,
        )
        send_on_commit(prize_hold_changed, tournament_id=tournament_id, outcome="held")
        return hold

    return atomic_with_retry(run)


def release_prizes(
    tournament_id: int, *, actor: Any, reason: str
) -> tuple[PrizeHoldDecision, bool]:
    """Pay the held prizes exactly as recorded. (decision, True) the first time; a repeat
    returns (the decision, False); a hold whose buy-ins were returned is refused."""
    return _decide_hold(tournament_id, HoldOutcome.RELEASED, actor=actor, reason=reason)


def return_buy_ins(
    tournament_id: int, *, actor: Any, reason: str
) -> tuple[PrizeHoldDecision, bool]:
    """Give each buy-in still in the hold back to whoever paid it; no prize is paid.
    Idempotent like ``release_prizes``."""
    return _decide_hold(tournament_id, HoldOutcome.RETURNED, actor=actor, reason=reason)


def _decide_hold(
    tournament_id: int, outcome: str, *, actor: Any, reason: str
) -> tuple[PrizeHoldDecision, bool]:
    _require_actor(actor)
    reason = _require_reason(reason)
    if type(tournament_id) is not int:
        raise LedgerError("tournament_id must be an int")
    hold_key = prize_hold_key(tournament_id)

    def run() -> tuple[PrizeHoldDecision, bool]:
        # The hold account first: a second decision waits here, then reads the first.
        account = _lock_accounts({hold_key})[hold_key]
        hold = PrizeHold.objects.filter(tournament_id=tournament_id).first()
        if hold is None:
            raise NoPrizeHold(tournament_id=tournament_id)
        decided = PrizeHoldDecision.objects.filter(hold=hold).first()
        if decided is not None:
            if decided.outcome == outcome:
                return decided, False
            raise HoldAlreadyDecided(
                tournament_id=tournament_id, outcome=decided.get_outcome_display()
            )
        if outcome == HoldOutcome.RELEASED:
            payouts = {int(user): int(amount) for user, amount in hold.prizes.items()}
            legs = [
                Leg(
                    kind=TransferKind.PRIZE,
                    debit=hold_key,
                    credit=wallet_key(user),
                    amount=amount,
                    key=f"prize:{tournament_id}:{user}",
                    actor_id=actor.pk,
                    reason=reason,
                )
                for user, amount in sorted(payouts.items())
            ]
        else:
            legs = [
                Leg(
                    kind=TransferKind.BUY_IN_REFUND,
                    debit=hold_key,
                    credit=buy.debit.key,
                    amount=buy.amount,
                    key=_refund_leg(buy).key,
                    actor_id=actor.pk,
                    reason=reason,
                )
                for buy in _unrefunded_buy_ins(tournament_id)
            ]
            payouts = {}
            for leg in legs:
                user = int(leg.credit.partition(":")[2])
                payouts[user] = payouts.get(user, 0) + leg.amount
        if sum(leg.amount for leg in legs) != account.balance:  # unreachable: checked at hold
            raise LedgerError(
                f"prize hold of tournament {tournament_id} holds {account.balance} xu, "
                f"the decision would pay {sum(leg.amount for leg in legs)}"
            )
        if legs:
            _lock_accounts({leg.credit for leg in legs})
            _post_locked(legs)
        left = Account.objects.get(key=hold_key).balance
        if left != 0:  # unreachable: the sums were compared above
            raise LedgerError(f"prize hold of tournament {tournament_id} would keep {left} xu")
        decision = PrizeHoldDecision.objects.create(
            hold=hold,
            outcome=outcome,
            paid={str(user): amount for user, amount in sorted(payouts.items())},
            actor=actor,
            reason=reason,
        )
        send_on_commit(prize_hold_changed, tournament_id=tournament_id, outcome=outcome)
        return decision, True

    return atomic_with_retry(run)


# --- Audit ------------------------------------------------------------------------------


def record_ledger_check() -> LedgerCheckRun:
    """Run the audit and keep its result for the admin dashboard."""
    from ledger import audit

    started = time.monotonic()
    report = audit.run_checks()
    run = LedgerCheckRun.objects.create(
        ok=report.ok,
        problems=report.problems,
        figures=report.figures,
        duration_ms=int((time.monotonic() - started) * 1000),
    )
    # Every 10 minutes adds up; a month of results is plenty (failures are also logged).
    LedgerCheckRun.objects.filter(created_at__lt=run.created_at - CHECK_RUNS_KEPT).delete()
    if not report.ok:
        logger.error("ledger check failed: %s", "; ".join(report.problems))
    return run


# --- Staff remedies: compensation and re-settlement (called by moderation) -------------
#
# Authorisation (who may pay how much, four-eyes approval) is the caller's job; the ledger
# insists on an actor and a reason and keeps its own invariants.


def _require_actor(actor: Any) -> None:
    if actor is None or getattr(actor, "pk", None) is None:
        raise StaffOnly()


def compensate(
    user: Any,
    amount: int,
    *,
    reason: str,
    actor: Any,
    dispute_id: int,
    key: str | None = None,
) -> Transfer:
    """Pay `amount` xu from the house to the user's wallet for a dispute, once per key.

    The house shard named by the key pays. When it holds less than `amount` (fees are
    off by default), the shortfall is first minted into that shard in the same batch
    (`house_funding`), so the house never goes negative and the cost stays visible.
    """
    _require_actor(actor)
    reason = _require_reason(reason)
    if type(amount) is not int or amount <= 0:
        raise InvalidAmount()
    key = key or f"compensation:dispute:{dispute_id}"
    house, wallet = house_key(key), wallet_key(user.pk)
    _refuse_self_payment(actor, wallet)
    leg = Leg(
        kind=TransferKind.COMPENSATION,
        debit=house,
        credit=wallet,
        amount=amount,
        key=key,
        actor_id=actor.pk,
        reason=reason,
    )

    def run() -> Transfer:
        funding_key = f"{key}:funding"
        accounts = _lock_accounts({house, wallet, issuance_key(funding_key)})
        # Read after the lock: a concurrent identical request committed first is found
        # here and answered idempotently instead of funding the house twice.
        existing = Transfer.objects.select_related("debit", "credit").filter(idempotency_key=key)
        found = existing.first()
        if found is not None:
            if not _same(leg, found):
                raise IdempotencyConflict(key=key)
            return found
        legs = []
        shortfall = amount - accounts[house].balance
        if shortfall > 0:
            legs.append(
                Leg(
                    kind=TransferKind.HOUSE_FUNDING,
                    debit=issuance_key(funding_key),
                    credit=house,
                    amount=shortfall,
                    key=funding_key,
                    actor_id=actor.pk,
                    reason=reason,
                )
            )
        legs.append(leg)
        return _post_locked(legs)[-1].transfer

    return atomic_with_retry(run)


def round_wallet_results(round_id: int) -> tuple[dict[int, int], int]:
    """What a closed round paid as things stand: ({user id: net xu}, house fee net).

    A player's net is what their wallet gained or lost through the round (holds, payouts
    and re-settlements), so it is the delta less that player's fee.
    """
    rows = (
        Posting.objects.filter(
            transfer__round_id=round_id,
            account__kind__in=[AccountKind.WALLET, AccountKind.HOUSE],
        )
        .values_list("account__kind", "account__user_id")
        .annotate(total=Sum("delta"))
    )
    wallets: dict[int, int] = {}
    house = 0
    for kind, user_id, total in rows:
        if kind == AccountKind.HOUSE:
            house += int(total)
        else:
            wallets[int(user_id)] = wallets.get(int(user_id), 0) + int(total)
    return wallets, house


def resettle_round(
    round_id: int, deltas: Mapping[int, int], *, reason: str, actor: Any
) -> list[Transfer]:
    """Correct a settled round to `deltas` (the right result), through its escrow.

    The round's closure is history and stays; what moves is the difference between what
    each wallet (and the house fee) got and what it should have got under the closure's
    fee rate: whoever was overpaid pays into the escrow, the escrow pays whoever was
    underpaid, and the escrow ends empty again. Repeating it finds nothing left to move
    and posts nothing; the keys name the target, so a racing duplicate posts once.
    """
    _require_actor(actor)
    reason = _require_reason(reason)

    def run() -> list[Transfer]:
        # The escrow lock serialises this with any other correction of the same round.
        closure = _lock_round(round_id)
        if closure is None or closure.outcome != RoundOutcome.SETTLED:
            raise InvalidSettlement(detail=_("only a settled round can be settled again"))
        holds = holds_of_round(round_id)
        target = _normalized_deltas(deltas, holds)
        if sum(target.values()) != 0:
            raise InvalidSettlement(detail=_("the amounts do not add up to zero"))
        for user_key, delta in target.items():
            held = holds.get(int(user_key))
            if held is None or -delta > held:
                raise InvalidSettlement(
                    detail=_("player %(user)s would lose more than their stake")
                    % {"user": user_key}
                )
        percent = Decimal(closure.fee_percent)
        fees = {k: fee_on_gain(v, percent) for k, v in target.items()}
        paid, house_paid = round_wallet_results(round_id)
        moves: dict[str, int] = {}
        for user_key, delta in target.items():
            change = (delta - fees[user_key]) - paid.get(int(user_key), 0)
            if change:
                moves[wallet_key(int(user_key))] = change
        fee_change = sum(fees.values()) - house_paid
        if fee_change:
            moves[house_key(f"fee:{round_id}")] = fee_change
        if not moves:
            return []
        digest = hashlib.sha256(json.dumps(target, sort_keys=True).encode()).hexdigest()[:16]
        escrow = escrow_key(round_id)

        def correction(account: str, change: int) -> Leg:
            debit, credit = (account, escrow) if change < 0 else (escrow, account)
            return Leg(
                kind=TransferKind.RESETTLEMENT,
                debit=debit,
                credit=credit,
                amount=abs(change),
                key=f"resettle:{round_id}:{digest}:{account}",
                round_id=round_id,
                actor_id=actor.pk,
                reason=reason,
            )

        # Money comes into the escrow before it goes out, so the escrow never dips below 0.
        ordered = sorted(moves.items(), key=lambda item: (item[1] > 0, item[0]))
        posted = _post_locked([correction(account, change) for account, change in ordered])
        escrow_left = Account.objects.get(key=escrow).balance
        if escrow_left != 0:  # unreachable: the changes sum to zero
            raise LedgerError(f"escrow of round {round_id} would keep {escrow_left} xu")
        return [p.transfer for p in posted if p.created]

    return atomic_with_retry(run)
