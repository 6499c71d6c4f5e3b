"""Remedies: compensation (four eyes above the limit), re-settlement, voiding a round.

Remedies never edit history: a wrong result is corrected by new ledger transfers
(`ledger.services.compensate`, `ledger.services.resettle_round`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import services as games
from games.errors import NotFound as GameNotFound
from games.models import Round, RoundPlayer, RoundState, StakesIn, Table
from games.selectors import settle_round_result
from ledger import services as ledger
from moderation.errors import Forbidden, ModerationError, NotFound
from moderation.models import (
    ActionKind,
    Compensation,
    CompensationStatus,
    ModeratorLimit,
    Resettlement,
)
from moderation.roles import can_moderate, is_admin
from moderation.services.base import (
    as_id,
    audit,
    clean_case_text,
    int_or_none,
    lock_dispute,
    notify,
    refusals_recorded,
    refuse_conflict,
    refuse_staff_filer,
    require_handler,
    require_moderator,
    require_reason,
)
from notices.models import NotificationKind


@dataclass(frozen=True)
class Limits:
    """What a staff member pays alone, in xu: per payment and per rolling 24 hours."""

    per_payment: int
    per_day: int


def limits_of(staff: User) -> Limits:
    """An admin: the site's threshold for admins. A moderator: their own, else the default."""
    if is_admin(staff):
        threshold = settings.MODERATION_ADMIN_SOLO_LIMIT_XU
        return Limits(threshold, threshold)
    own = ModeratorLimit.objects.filter(moderator=staff).first()
    if own is not None:
        return Limits(own.per_payment, own.per_day)
    return Limits(
        settings.MODERATION_COMPENSATION_LIMIT_XU, settings.MODERATION_COMPENSATION_DAILY_LIMIT_XU
    )


def paid_alone_since(staff: User, since: datetime) -> int:
    """What this staff member paid without a second pair of eyes since a time."""
    paid = Compensation.objects.filter(
        requested_by=staff,
        decided_by__isnull=True,
        status=CompensationStatus.PAID,
        created_at__gte=since,
    ).aggregate(total=Sum("amount"))["total"]
    return int(paid or 0)


def solo_allowance(staff: User, now: datetime | None = None) -> int:
    """The largest payment this staff member may make alone right now."""
    limits = limits_of(staff)
    spent = paid_alone_since(staff, (now or timezone.now()) - timedelta(hours=24))
    return max(0, min(limits.per_payment, limits.per_day - spent))


def _amount(value: Any) -> int:
    """A compensation amount from a form: 1 xu up to the site's maximum."""
    amount = int_or_none(value)
    maximum = settings.MODERATION_AMOUNT_MAX_XU
    if amount is None or amount <= 0:
        raise ModerationError(
            _("The amount must be a whole number of xu above zero."), code="bad_amount"
        )
    if amount > maximum:
        raise ModerationError(
            _("A compensation is at most %(max)s xu."), code="amount_too_large", max=maximum
        )
    return amount


@refusals_recorded(ActionKind.SET_LIMIT, "accounts.user")
@transaction.atomic
def set_compensation_limit(
    admin: User, moderator_id: Any, *, per_payment: Any, per_day: Any, reason: str
) -> User:
    """An admin sets what another moderator pays alone (xu per payment, per 24 hours)."""
    if not is_admin(admin):
        raise Forbidden()
    reason = require_reason(reason)
    maximum = settings.MODERATION_AMOUNT_MAX_XU
    one, day = int_or_none(per_payment), int_or_none(per_day)
    if one is None or day is None or not 0 <= one <= day <= maximum:
        raise ModerationError(
            _(
                "A limit is 0 to %(max)s xu, and the limit per payment is at most the limit "
                "per 24 hours."
            ),
            code="bad_limit",
            max=maximum,
        )
    moderator = User.objects.filter(pk=as_id(moderator_id)).first()
    if moderator is None or not can_moderate(moderator):
        raise NotFound()
    if moderator.pk == admin.pk:
        raise Forbidden(_("Nobody sets their own limit."), code="own_limit")
    if is_admin(moderator):
        raise ModerationError(
            _("An admin's own payments follow the site's threshold for admins."),
            code="admin_limit",
        )
    limits = limits_of(moderator)
    before = {"per_payment": limits.per_payment, "per_day": limits.per_day}
    ModeratorLimit.objects.update_or_create(
        moderator=moderator, defaults={"per_payment": one, "per_day": day, "set_by": admin}
    )
    audit(
        admin,
        ActionKind.SET_LIMIT,
        moderator,
        reason=reason,
        before=before,
        after={"per_payment": one, "per_day": day},
    )
    return moderator


def _pay(compensation: Compensation, actor: User) -> None:
    transfer = ledger.compensate(
        compensation.recipient,
        compensation.amount,
        reason=compensation.reason,
        actor=actor,
        dispute_id=compensation.dispute_id,
        key=f"compensation:case:{compensation.dispute_id}:{compensation.pk}",
    )
    compensation.transfer = transfer
    compensation.status = CompensationStatus.PAID


@refusals_recorded(ActionKind.COMPENSATE, "moderation.dispute")
@transaction.atomic
def compensate(moderator: User, dispute_id: Any, *, amount: Any, reason: str) -> Compensation:
    """Pay the filer from the house for this case, or ask an admin above the limits."""
    require_moderator(moderator)
    reason = require_reason(reason)
    amount = _amount(amount)
    # One staff member's payments are serialised on their user row, so two payments at
    # once cannot both fit under the same rolling 24-hour limit.
    User.objects.select_for_update().filter(pk=moderator.pk).first()
    dispute = lock_dispute(dispute_id)
    require_handler(moderator, dispute)
    refuse_staff_filer(dispute)
    if dispute.compensations.exclude(status=CompensationStatus.REJECTED).exists():
        raise ModerationError(
            _("This case already has a compensation paid or waiting for approval."),
            code="already_compensated",
        )
    allowance = solo_allowance(moderator)
    compensation = Compensation.objects.create(
        dispute=dispute,
        recipient_id=dispute.filed_by_id,
        amount=amount,
        reason=reason,
        requested_by=moderator,
        status=CompensationStatus.PENDING,
    )
    if amount > allowance:
        audit(
            moderator,
            ActionKind.REQUEST_COMPENSATION,
            compensation,
            reason=reason,
            after={"amount": amount, "allowance": allowance, "status": compensation.status},
            dispute=dispute,
        )
        return compensation
    _pay(compensation, moderator)
    compensation.save(update_fields=["transfer", "status"])
    audit(
        moderator,
        ActionKind.COMPENSATE,
        compensation,
        reason=reason,
        after={"amount": amount, "allowance": allowance, "transfer": compensation.transfer_id},
        dispute=dispute,
    )
    notify(dispute.filed_by_id, NotificationKind.COMPENSATED, dispute=dispute, amount=amount)
    return compensation


def _lock_compensation(compensation_id: Any) -> Compensation:
    # Two admins approving one request at once must not both pay: the second sees it decided.
    try:
        return Compensation.objects.select_for_update().get(pk=as_id(compensation_id))
    except (Compensation.DoesNotExist, ValueError, TypeError):
        raise NotFound() from None


def _decidable(admin: User, compensation: Compensation) -> None:
    if not is_admin(admin):
        raise Forbidden(_("Only an admin can approve a compensation above the limit."))
    if compensation.status != CompensationStatus.PENDING:
        raise ModerationError(_("This request was already decided."), code="already_decided")
    if compensation.requested_by_id == admin.pk:
        raise Forbidden(
            _("Four eyes: someone else must approve your own request."), code="four_eyes"
        )
    refuse_conflict(admin, compensation.dispute)
    refuse_staff_filer(compensation.dispute)


@refusals_recorded(ActionKind.APPROVE_COMPENSATION, "moderation.compensation")
@transaction.atomic
def approve_compensation(admin: User, compensation_id: Any, *, reason: str = "") -> Compensation:
    compensation = _lock_compensation(compensation_id)
    _decidable(admin, compensation)
    _pay(compensation, admin)
    compensation.decided_by = admin
    compensation.decided_at = timezone.now()
    compensation.save(update_fields=["transfer", "status", "decided_by", "decided_at"])
    audit(
        admin,
        ActionKind.APPROVE_COMPENSATION,
        compensation,
        reason=clean_case_text(reason),
        before={"status": CompensationStatus.PENDING},
        after={"status": compensation.status, "transfer": compensation.transfer_id},
        dispute=compensation.dispute,
    )
    notify(
        compensation.recipient_id,
        NotificationKind.COMPENSATED,
        dispute=compensation.dispute,
        amount=compensation.amount,
    )
    return compensation


@refusals_recorded(ActionKind.REJECT_COMPENSATION, "moderation.compensation")
@transaction.atomic
def reject_compensation(admin: User, compensation_id: Any, *, reason: str) -> Compensation:
    reason = require_reason(reason)
    compensation = _lock_compensation(compensation_id)
    _decidable(admin, compensation)
    compensation.status = CompensationStatus.REJECTED
    compensation.decided_by = admin
    compensation.decided_at = timezone.now()
    compensation.save(update_fields=["status", "decided_by", "decided_at"])
    audit(
        admin,
        ActionKind.REJECT_COMPENSATION,
        compensation,
        reason=reason,
        before={"status": CompensationStatus.PENDING},
        after={"status": compensation.status},
        dispute=compensation.dispute,
    )
    return compensation


def correct_deltas(round_: Round) -> dict[int, int]:
    """{user id: xu} as the stored rules settle the round now."""
    result = settle_round_result(round_)
    return {p.user_id: result.settlement.player(str(p.position)).xu for p in result.players}


@refusals_recorded(ActionKind.RESETTLE, "games.round")
@transaction.atomic
def resettle(
    moderator: User, round_id: Any, *, reason: str, dispute_id: Any = None
) -> Resettlement | None:
    """Pay a settled round again as its stored rules settle it. None: nothing was wrong.

    Idempotent: once the wallets match the correct result there is nothing left to move.
    """
    require_moderator(moderator)
    reason = require_reason(reason)
    try:
        # The round row lock keeps a concurrent re-settlement of this round out until we
        # commit (the ledger also serialises on the escrow).
        round_ = Round.objects.select_for_update().get(pk=as_id(round_id))
    except (Round.DoesNotExist, ValueError, TypeError):
        raise NotFound() from None
    if round_.state != RoundState.SETTLED:
        raise ModerationError(_("Only a settled round can be settled again."), code="not_settled")
    if Table.objects.filter(pk=round_.table_id).values_list("stakes_in", flat=True)[0] != (
        StakesIn.XU
    ):
        # Its result moved tournament chips or nothing, never xu: a re-settlement through the
        # ledger would pay xu that no wallet ever staked (docs/moderation.md).
        raise ModerationError(
            _("Only a round played for xu can be settled again; this one was not."),
            code="not_xu",
        )
    if RoundPlayer.objects.filter(round=round_, user=moderator).exists():
        raise Forbidden(
            _("You played this round: another staff member must settle it again."),
            code="conflict_of_interest",
        )
    dispute = None
    if dispute_id not in (None, ""):
        dispute = lock_dispute(dispute_id)
        require_handler(moderator, dispute)
        if dispute.round_id != round_.pk:
            raise ModerationError(_("This case is about another round."), code="other_round")
    deltas = correct_deltas(round_)
    paid, house = ledger.round_wallet_results(round_.pk)
    moving = sum(max(0, deltas.get(u, 0) - paid.get(u, 0)) for u in {*deltas, *paid})
    if moving > settings.MODERATION_AMOUNT_MAX_XU:
        raise ModerationError(
            _("This re-settlement would pay %(amount)s xu, more than the %(max)s xu allowed."),
            code="resettlement_too_large",
            amount=moving,
            max=settings.MODERATION_AMOUNT_MAX_XU,
        )
    transfers = ledger.resettle_round(round_.pk, deltas, reason=reason, actor=moderator)
    if not transfers:
        return None
    after, house_after = ledger.round_wallet_results(round_.pk)
    resettlement = Resettlement.objects.create(
        round=round_,
        dispute=dispute,
        actor=moderator,
        reason=reason,
        paid={"wallets": _keyed(paid), "house": house},
        corrected={"deltas": _keyed(deltas), "wallets": _keyed(after), "house": house_after},
        transfer_ids=[t.pk for t in transfers],
    )
    audit(
        moderator,
        ActionKind.RESETTLE,
        round_,
        reason=reason,
        before=resettlement.paid,
        after={**resettlement.corrected, "transfers": resettlement.transfer_ids},
        dispute=dispute,
    )
    for user_id, net in after.items():
        change = net - paid.get(user_id, 0)
        if change:
            notify(
                user_id, NotificationKind.RESETTLED, dispute=None, round=round_.pk, change=change
            )
    return resettlement


@refusals_recorded(ActionKind.VOID_ROUND, "games.round")
@transaction.atomic
def staff_void_round(moderator: User, round_id: Any, *, reason: str) -> Round:
    """Void a round still being played: every stake goes back, nobody wins or loses."""
    require_moderator(moderator)
    reason = require_reason(reason)
    # Voiding gives a losing player their stake back: never for a round one plays in.
    if RoundPlayer.objects.filter(round_id=as_id(round_id), user=moderator).exists():
        raise Forbidden(
            _("You are playing this round: another staff member must void it."),
            code="conflict_of_interest",
        )
    try:
        round_ = games.void_round(
            round_id, reason=games.VoidReason.STAFF, by=moderator, note=reason
        )
    except GameNotFound:
        raise NotFound() from None
    audit(
        moderator,
        ActionKind.VOID_ROUND,
        round_,
        reason=reason,
        after={
            "state": round_.state,
            "returned": {str(p.user_id): p.hold for p in round_.players.order_by("position")},
        },
    )
    return round_


def _keyed(values: dict[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in sorted(values.items())}
