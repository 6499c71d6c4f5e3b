"""Staff remedies, called by moderation: compensation and re-settlement of a round.

Authorisation (who may pay how much, four-eyes approval) is the caller's job; the ledger
insists on an actor and a reason and keeps its own invariants.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.db.models import Sum
from django.utils.translation import gettext as _

from ledger.errors import IdempotencyConflict, InvalidAmount, InvalidSettlement, LedgerError
from ledger.keys import escrow_key, house_key, issuance_key, wallet_key
from ledger.models import Account, AccountKind, Posting, RoundOutcome, Transfer, TransferKind
from ledger.selectors import holds_of_round
from ledger.services.posting import Leg, _lock_accounts, _lock_round, _post_locked, _same
from ledger.services.rounds import _normalized_deltas, fee_on_gain
from ledger.services.staff import _refuse_self_payment, _require_actor, _require_reason
from ledger.transactions import atomic_with_retry


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
