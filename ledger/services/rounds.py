"""A round's xu (the API the games app calls inside its own transaction): every stake held
into the round's escrow at the deal, then the escrow emptied once, by the settlement or by
releasing every hold when the round is voided (docs/ledger.md, "Rounds")."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from decimal import ROUND_FLOOR, Decimal
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils.translation import gettext as _

from ledger.errors import (
    InvalidSettlement,
    LedgerError,
    RoundAlreadyClosed,
    RoundSettledDifferently,
)
from ledger.keys import escrow_key, house_key, wallet_key
from ledger.models import Account, RoundClosure, RoundOutcome, Transfer, TransferKind
from ledger.selectors import holds_of_round
from ledger.services.posting import Leg, _lock_round, _post_locked, post_transfers
from ledger.transactions import atomic_with_retry


def hold(round_id: int, user: Any, amount: int) -> Transfer:
    """Move `amount` xu from the user's wallet into the round's escrow (once per player)."""
    return hold_many(round_id, [(user, amount)])[0]


def hold_many(
    round_id: int, holds: Sequence[tuple[Any, int]], *, savepoint: bool = True
) -> list[Transfer]:
    """Hold several players' stakes for one round at once: all of them or none.

    `savepoint=False`: the caller's transaction fails with a refusal (`atomic_with_retry`)."""
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
    posted = post_transfers(legs, open_round=round_id, savepoint=savepoint)
    return [one.transfer for one in posted]


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


def settle_round(
    round_id: int, deltas: Mapping[int, int], *, savepoint: bool = True
) -> RoundClosure:
    """Pay out a round from its escrow in one transaction.

    `deltas` maps user id to the player's signed net xu for the round (sum zero; a loss
    never exceeds the hold; players who held but are missing count as zero). Each player
    gets back hold + delta, less the house fee on a gain. The escrow ends empty. Settling
    again with the same deltas returns the first settlement; different deltas are refused.
    `savepoint=False`: the caller's transaction fails with a refusal (`atomic_with_retry`).
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

    return atomic_with_retry(run, savepoint=savepoint)


def release_round_holds(round_id: int) -> RoundClosure:
    """Void a round's xu: every hold goes back to its wallet (``release`` transfers) and the
    round closes voided. Releasing twice changes nothing."""

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
    """Close the round, refused unless its escrow is empty (on PostgreSQL one statement
    checks and inserts)."""
    closure = RoundClosure(
        round_id=round_id, outcome=outcome, deltas=deltas, fee=fee, fee_percent=percent
    )
    if connection.vendor != "postgresql":
        _refuse_unless_empty(round_id)
        closure.save(force_insert=True)
        return closure
    with connection.cursor() as cursor:
        cursor.execute(_CLOSE_SQL, [*_close_params(closure), escrow_key(round_id)])
        row = cursor.fetchone()
    if row is None:
        _refuse_unless_empty(round_id)
        raise LedgerError(f"round {round_id} has no escrow")  # it has: _lock_round opens it
    closure.pk = row[0]
    closure._state.adding = False
    closure._state.db = connection.alias
    return closure


_CLOSE_SQL = """
    INSERT INTO ledger_roundclosure (round_id, outcome, deltas, fee, fee_percent, created_at)
    SELECT %s, %s, %s::jsonb, %s, %s, %s FROM ledger_account WHERE key = %s AND balance = 0
    RETURNING id
"""


def _close_params(closure: RoundClosure) -> list[Any]:
    return [
        closure.round_id,
        closure.outcome,
        json.dumps(closure.deltas),
        closure.fee,
        closure.fee_percent,
        closure.created_at,
    ]


def _refuse_unless_empty(round_id: int) -> None:
    escrow = Account.objects.get(key=escrow_key(round_id))
    if escrow.balance != 0:  # unreachable when holds and deltas were validated
        raise LedgerError(f"escrow of round {round_id} would keep {escrow.balance} xu")
