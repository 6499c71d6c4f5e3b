"""Xu moved by hand: the checks every staff movement passes (an actor, a reason through the
text policy, never into their own wallet) and the admin's corrections, balance adjustments
and reversals (the ledger admin)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.errors import TextRefused
from accounts.roles import is_admin
from accounts.text import clean_text
from ledger.errors import (
    AlreadyReversed,
    IdempotencyConflict,
    InvalidAmount,
    LedgerError,
    NeedsSecondAdmin,
    NotReversible,
    ReasonRequired,
    SelfPayment,
    StaffOnly,
)
from ledger.formats import Xu
from ledger.keys import issuance_key, wallet_key
from ledger.models import ROUND_KINDS, AccountKind, Transfer, TransferKind
from ledger.services.posting import Leg, post_transfers


def _require_staff(actor: Any) -> None:
    # An admin in good standing: a suspended or deactivated one has no staff powers.
    if actor is None or not is_admin(actor):
        raise StaffOnly()


def _require_actor(actor: Any) -> None:
    if actor is None or getattr(actor, "pk", None) is None:
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
