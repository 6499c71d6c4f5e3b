"""A tournament's xu: buy-ins into its prize pool, refunds, prizes (docs/tournaments.md), and
prizes held for a moderator's review (docs/ledger.md, "Prize holds")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from ledger.errors import (
    HoldAlreadyDecided,
    InvalidSettlement,
    LedgerError,
    NoPrizeHold,
    PoolAlreadyClosed,
)
from ledger.keys import pool_key, prize_hold_key, wallet_key
from ledger.models import (
    Account,
    HoldOutcome,
    PoolClosure,
    PoolOutcome,
    PrizeHold,
    PrizeHoldDecision,
    Transfer,
    TransferKind,
)
from ledger.services.posting import Leg, _lock_accounts, _post_locked, _validate
from ledger.services.staff import _require_actor, _require_reason
from ledger.signals import prize_hold_changed, send_on_commit
from ledger.transactions import atomic_with_retry

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
