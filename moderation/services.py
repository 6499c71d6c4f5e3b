"""Every write of the moderation app: one transaction each, with its staff audit row.

Remedies never edit history: a wrong result is corrected by new ledger transfers
(`ledger.services.compensate`, `ledger.services.resettle_round`) and every staff action
is a new, append-only `StaffAction` row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import services as account_services
from accounts.errors import AccountError, TextRefused
from accounts.ids import parse_id
from accounts.models import User
from accounts.text import clean_text
from games import services as games
from games.errors import GameError
from games.errors import NotFound as GameNotFound
from games.models import Round, RoundPlayer, RoundState, Seat, StakesIn, Table
from games.selectors import active_round, settle_round_result
from games.services import duplicate as games_duplicate
from ledger import selectors as ledger_selectors
from ledger import services as ledger
from ledger.errors import LedgerError
from ledger.models import HoldOutcome, PrizeHold, PrizeHoldDecision
from moderation.errors import Forbidden, ModerationError, NotFound
from moderation.models import (
    ActionKind,
    CaseKind,
    Category,
    Compensation,
    CompensationStatus,
    Dispute,
    ModeratorLimit,
    Mute,
    Notification,
    NotificationKind,
    Outcome,
    Resettlement,
    SeatIP,
    StaffAction,
    Status,
    UserIP,
)
from moderation.roles import can_moderate, holds_staff_role, is_admin

MAX_TEXT = 2000
F = TypeVar("F", bound=Callable[..., Any])


# --- The audit log and notifications ----------------------------------------------------


def _audit(
    actor: User,
    action: str,
    target: Any,
    *,
    reason: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    dispute: Dispute | None = None,
) -> StaffAction:
    return StaffAction.objects.create(
        actor=actor,
        action=action,
        target_type=target._meta.label_lower,
        target_id=str(target.pk),
        target_repr=str(target)[:200],
        reason=reason,
        before=before or {},
        after=after or {},
        dispute=dispute,
    )


def _notify(user_id: int, kind: str, *, dispute: Dispute | None = None, **params: Any) -> None:
    Notification.objects.create(user_id=user_id, kind=kind, dispute=dispute, params=params)


def _require_moderator(user: User) -> None:
    if not can_moderate(user):
        raise Forbidden()


def _clean_text(value: Any) -> str:
    """Free text from a form (a dispute, a report, a reason, a resolution), through the text
    policy (accounts.text: nothing invisible, newlines kept), at most MAX_TEXT characters.
    A NUL is refused outright: no browser sends one (PostgreSQL would refuse it too)."""
    text = value if isinstance(value, str) else ""
    if "\x00" in text:
        raise ModerationError(
            _("The text contains a character that is not allowed."), code="bad_text"
        )
    try:
        text = clean_text(text, multiline=True)
    except TextRefused as exc:
        raise exc.as_error(ModerationError) from exc
    if len(text) > MAX_TEXT:
        raise ModerationError(_("Please keep it under 2000 characters."), code="text_too_long")
    return text


def _require_reason(reason: str) -> str:
    reason = _clean_text(reason)
    if not reason:
        raise ModerationError(_("A reason is required."), code="reason_required")
    return reason


def _lock_dispute(dispute_id: Any) -> Dispute:
    # Two moderators acting on one case at once (claiming, paying, resolving) are
    # serialised here: the second sees what the first did.
    try:
        return Dispute.objects.select_for_update().get(pk=_as_id(dispute_id))
    except (Dispute.DoesNotExist, ValueError, TypeError):
        raise NotFound() from None


def _state(dispute: Dispute) -> dict[str, Any]:
    return {
        "status": dispute.status,
        "moderator": dispute.moderator_id,
        "outcome": dispute.outcome,
        "resolution": dispute.resolution,
    }


# --- Separation of duties -----------------------------------------------------------------


def concerns(user: User, dispute: Dispute) -> bool:
    """The case is about this user: they filed it, it reports them, or they played its round.

    A report made from a table (no round) also concerns the table's host and whoever sits
    there. Such a user neither handles the case nor decides what it pays.
    """
    if user.pk in (dispute.filed_by_id, dispute.reported_user_id):
        return True
    if dispute.round_id is not None:
        return RoundPlayer.objects.filter(round_id=dispute.round_id, user=user).exists()
    if dispute.table_id is not None:
        return (
            Table.objects.filter(pk=dispute.table_id, host=user).exists()
            or Seat.objects.filter(table_id=dispute.table_id, user=user).exists()
        )
    return False


def _refuse_conflict(staff: User, dispute: Dispute) -> None:
    if concerns(staff, dispute):
        raise Forbidden(
            _("This case concerns you: another staff member must handle it."),
            code="conflict_of_interest",
        )


def _refuse_staff_filer(dispute: Dispute) -> None:
    """A staff member is never paid by a case they filed (an admin adjusts, if ever)."""
    if holds_staff_role(dispute.filed_by):
        raise Forbidden(_("A staff member is never paid by a case they filed."), code="staff_filer")


def record_refusal(
    actor: User, tried: str, target_type: str, target_id: Any, error: ModerationError
) -> StaffAction:
    """A staff rule said no: the audit log keeps who tried what, and why it was refused."""
    target = f"{target_type}:{_as_id(target_id)}"
    return StaffAction.objects.create(
        actor=actor,
        action=ActionKind.REFUSED,
        target_type=target_type[:32],
        target_id=str(_as_id(target_id)),
        target_repr=f"{tried} {target}"[:200],
        reason=error.message,
        after={"tried": str(tried), "code": error.code},
    )


# Refusals of the separation-of-duty rules and limits that are recorded (every Forbidden is).
RECORDED_REFUSALS = {"amount_too_large", "resettlement_too_large", "admin_limit"}


def _refusals_recorded(tried: str, target_type: str) -> Callable[[F], F]:
    """Record a refused staff action after its transaction rolled back (so the row stays)."""

    def decorate(func: F) -> F:
        @wraps(func)
        def wrapped(actor: User, target_id: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return func(actor, target_id, *args, **kwargs)
            except NotFound:
                raise
            except ModerationError as exc:
                if isinstance(exc, Forbidden) or exc.code in RECORDED_REFUSALS:
                    record_refusal(actor, tried, target_type, target_id, exc)
                raise

        return wrapped  # type: ignore[return-value]

    return decorate


# --- Players: disputes, reports, notifications -----------------------------------------


def dispute_window() -> timedelta:
    return timedelta(days=settings.MODERATION_DISPUTE_WINDOW_DAYS)


@transaction.atomic
def file_dispute(
    user: User, round_id: Any, *, category: str, text: str, now: datetime | None = None
) -> Dispute:
    """A participant disputes a finished round, within the window, once while it is open."""
    now = now or timezone.now()
    try:
        round_ = Round.objects.get(pk=_as_id(round_id))
    except (Round.DoesNotExist, ValueError, TypeError):
        raise NotFound() from None
    if not RoundPlayer.objects.filter(round=round_, user=user).exists():
        raise NotFound(_("You did not play in this round."), code="not_in_round")
    if not round_.is_finished:
        raise ModerationError(
            _("A round can be disputed once it is over."), code="round_not_finished"
        )
    if category not in Category.values:
        raise ModerationError(_("Choose a category."), code="bad_category")
    text = _clean_text(text)
    ended = round_.settled_at or round_.dealt_at
    if now - ended > dispute_window():
        raise ModerationError(
            _("Rounds can be disputed for %(days)s days after they end."),
            code="window_closed",
            days=settings.MODERATION_DISPUTE_WINDOW_DAYS,
        )
    if (
        Dispute.objects.filter(kind=CaseKind.DISPUTE, filed_by=user, round=round_)
        .exclude(status=Status.RESOLVED)
        .exists()
    ):
        raise ModerationError(
            _("You already have an open dispute for this round."), code="already_open"
        )
    try:
        # A savepoint: a double submit loses the race on the unique constraint.
        with transaction.atomic():
            dispute = Dispute.objects.create(
                kind=CaseKind.DISPUTE,
                filed_by=user,
                round=round_,
                table_id=round_.table_id,
                category=category,
                text=text.strip(),
            )
    except IntegrityError:
        raise ModerationError(
            _("You already have an open dispute for this round."), code="already_open"
        ) from None
    _notify(user.pk, NotificationKind.CASE_FILED, dispute=dispute)
    return dispute


@transaction.atomic
def report_player(
    reporter: User,
    reported_id: Any,
    *,
    category: str,
    text: str,
    round_id: Any = None,
    table_id: Any = None,
) -> Dispute:
    """Report another player, from a table or a round the reporter played."""
    reported = User.objects.filter(pk=_as_id(reported_id)).first()
    if reported is None:
        raise NotFound()
    if reported.pk == reporter.pk:
        raise ModerationError(_("You cannot report yourself."), code="self_report")
    if category not in Category.values:
        raise ModerationError(_("Choose a category."), code="bad_category")
    text = _clean_text(text)
    if not text:
        raise ModerationError(_("Tell us what happened."), code="text_required")
    round_: Round | None = None
    table: Table | None = None
    if round_id not in (None, ""):
        round_ = Round.objects.filter(pk=_as_id(round_id)).first()
        played = RoundPlayer.objects.filter(round=round_, user__in=[reporter, reported])
        if round_ is None or played.count() != 2:
            raise NotFound(_("You can only report a player of a round you played."))
        table = round_.table
    elif table_id not in (None, ""):
        table = Table.objects.filter(pk=_as_id(table_id)).first()
        if table is None or not Seat.objects.filter(table=table, user=reporter).exists():
            raise NotFound(_("You can only report a player at a table where you sit."))
    dispute = Dispute.objects.create(
        kind=CaseKind.REPORT,
        filed_by=reporter,
        reported_user=reported,
        round=round_,
        table=table,
        category=category,
        text=text.strip(),
    )
    _notify(reporter.pk, NotificationKind.CASE_FILED, dispute=dispute)
    return dispute


@transaction.atomic
def report_chat(
    reporter: User,
    reported_id: int,
    *,
    table_id: int,
    round_id: int | None,
    text: str,
    evidence: dict[str, Any],
) -> Dispute:
    """A reported chat message becomes a case that carries it and the talk around it.

    The chat app checks that the reporter saw the message at that table; the evidence is
    a copy, so the case keeps it whatever the chat's retention does later.
    """
    if reported_id == reporter.pk:
        raise ModerationError(_("You cannot report yourself."), code="self_report")
    dispute = Dispute.objects.create(
        kind=CaseKind.REPORT,
        filed_by=reporter,
        reported_user_id=reported_id,
        round_id=round_id,
        table_id=table_id,
        category=Category.CHAT,
        text=_clean_text(text),
        evidence=evidence,
    )
    _notify(reporter.pk, NotificationKind.CASE_FILED, dispute=dispute)
    return dispute


def _int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _as_id(value: Any) -> int:
    """A primary key from user input (accounts.ids); 0 (no row) when it cannot be one."""
    return parse_id(value) or 0


def mark_notifications_read(user: User) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )


# --- Moderators: claim and resolve -------------------------------------------------------


@_refusals_recorded(ActionKind.CLAIM, "moderation.dispute")
@transaction.atomic
def claim(moderator: User, dispute_id: Any) -> Dispute:
    _require_moderator(moderator)
    dispute = _lock_dispute(dispute_id)
    _refuse_conflict(moderator, dispute)
    if dispute.status == Status.IN_REVIEW and dispute.moderator_id == moderator.pk:
        return dispute  # a double click claims once
    if dispute.status != Status.OPEN:
        raise ModerationError(
            _("This case was already claimed by another moderator."), code="already_claimed"
        )
    before = _state(dispute)
    dispute.status = Status.IN_REVIEW
    dispute.moderator = moderator
    dispute.claimed_at = timezone.now()
    dispute.save(update_fields=["status", "moderator", "claimed_at"])
    _audit(
        moderator, ActionKind.CLAIM, dispute, before=before, after=_state(dispute), dispute=dispute
    )
    _notify(dispute.filed_by_id, NotificationKind.CASE_CLAIMED, dispute=dispute)
    return dispute


def _require_handler(moderator: User, dispute: Dispute) -> None:
    _refuse_conflict(moderator, dispute)
    if dispute.status != Status.IN_REVIEW:
        raise ModerationError(_("Claim the case first."), code="not_in_review")
    if dispute.moderator_id != moderator.pk and not is_admin(moderator):
        raise Forbidden(_("Another moderator is handling this case."), code="not_yours")


@_refusals_recorded(ActionKind.RESOLVE, "moderation.dispute")
@transaction.atomic
def resolve(moderator: User, dispute_id: Any, *, outcome: str, resolution: str) -> Dispute:
    """Close a case as upheld or rejected with a text the player sees."""
    _require_moderator(moderator)
    resolution = _require_reason(resolution)
    if outcome not in Outcome.values:
        raise ModerationError(_("Choose upheld or rejected."), code="bad_outcome")
    dispute = _lock_dispute(dispute_id)
    _require_handler(moderator, dispute)
    before = _state(dispute)
    dispute.status = Status.RESOLVED
    dispute.outcome = outcome
    dispute.resolution = resolution
    dispute.resolved_at = timezone.now()
    dispute.save(update_fields=["status", "outcome", "resolution", "resolved_at"])
    _audit(
        moderator,
        ActionKind.RESOLVE,
        dispute,
        reason=resolution,
        before=before,
        after=_state(dispute),
        dispute=dispute,
    )
    _notify(
        dispute.filed_by_id,
        NotificationKind.CASE_RESOLVED,
        dispute=dispute,
        outcome=outcome,
        resolution=resolution,
    )
    return dispute


@transaction.atomic
def record_private_table_visit(staff_id: int, table_id: int) -> StaffAction | None:
    """A staff member watched a private table no invite let them in to: admins can see it."""
    staff = User.objects.filter(pk=staff_id).first()
    table = Table.objects.filter(pk=table_id).first()
    if staff is None or table is None or not holds_staff_role(staff):
        return None
    return _audit(staff, ActionKind.VIEW_PRIVATE_TABLE, table)


def record_replay_view(moderator: User, round_: Round) -> StaffAction:
    """Seeing every player's cards is a staff action too; admins can see who looked."""
    _require_moderator(moderator)
    return _audit(moderator, ActionKind.VIEW_REPLAY, round_)


@transaction.atomic
def open_board(moderator: User, round_id: Any) -> StaffAction | None:
    """Open a finished round of a duplicate board before the board's reveal (its replay).

    Recorded twice, in one transaction: ``games.services.duplicate.record_board_seen``
    (from now on no table deals the board to this staff member and its cards are no secret
    for them, docs/duplicate.md) and the audit log. None: the board holds no secret for
    them (revealed, or played or opened before). Refused while the round is live (nobody
    sees those hands) and while they play a round of the board themselves.
    """
    _require_moderator(moderator)
    round_ = Round.objects.select_related("board").filter(pk=_as_id(round_id)).first()
    if round_ is None:
        raise NotFound()
    if not round_.is_finished:
        raise ModerationError(
            _("This round is still being played: nobody sees its hands yet."), code="round_live"
        )
    try:
        seen = games_duplicate.record_board_seen(moderator, round_, why="moderation_replay")
    except GameError as exc:
        raise ModerationError(exc.message, code=exc.code) from exc
    if seen is None or round_.board is None:
        return None
    board = round_.board
    return _audit(
        moderator,
        ActionKind.OPEN_BOARD,
        round_,
        after={"schedule": board.schedule_id, "board": board.number},
    )


# --- Remedies: compensation (four eyes above the limit), re-settlement ------------------


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
    amount = _int_or_none(value)
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


@_refusals_recorded(ActionKind.SET_LIMIT, "accounts.user")
@transaction.atomic
def set_compensation_limit(
    admin: User, moderator_id: Any, *, per_payment: Any, per_day: Any, reason: str
) -> User:
    """An admin sets what another moderator pays alone (xu per payment, per 24 hours)."""
    if not is_admin(admin):
        raise Forbidden()
    reason = _require_reason(reason)
    maximum = settings.MODERATION_AMOUNT_MAX_XU
    one, day = _int_or_none(per_payment), _int_or_none(per_day)
    if one is None or day is None or not 0 <= one <= day <= maximum:
        raise ModerationError(
            _(
                "A limit is 0 to %(max)s xu, and the limit per payment is at most the limit "
                "per 24 hours."
            ),
            code="bad_limit",
            max=maximum,
        )
    moderator = User.objects.filter(pk=_as_id(moderator_id)).first()
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
    _audit(
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


@_refusals_recorded(ActionKind.COMPENSATE, "moderation.dispute")
@transaction.atomic
def compensate(moderator: User, dispute_id: Any, *, amount: Any, reason: str) -> Compensation:
    """Pay the filer from the house for this case, or ask an admin above the limits."""
    _require_moderator(moderator)
    reason = _require_reason(reason)
    amount = _amount(amount)
    # One staff member's payments are serialised on their user row, so two payments at
    # once cannot both fit under the same rolling 24-hour limit.
    User.objects.select_for_update().filter(pk=moderator.pk).first()
    dispute = _lock_dispute(dispute_id)
    _require_handler(moderator, dispute)
    _refuse_staff_filer(dispute)
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
        _audit(
            moderator,
            ActionKind.REQUEST_COMPENSATION,
            compensation,
            reason=reason,
            after={"amount": amount, "allowance": allowance, "status": compensation.status},
            dispute=dispute,
        )
        return compensation
    try:
        _pay(compensation, moderator)
    except LedgerError as exc:
        raise ModerationError(exc.message, code=exc.code) from exc
    compensation.save(update_fields=["transfer", "status"])
    _audit(
        moderator,
        ActionKind.COMPENSATE,
        compensation,
        reason=reason,
        after={"amount": amount, "allowance": allowance, "transfer": compensation.transfer_id},
        dispute=dispute,
    )
    _notify(dispute.filed_by_id, NotificationKind.COMPENSATED, dispute=dispute, amount=amount)
    return compensation


def _lock_compensation(compensation_id: Any) -> Compensation:
    # Two admins approving one request at once must not both pay: the second sees it decided.
    try:
        return Compensation.objects.select_for_update().get(pk=_as_id(compensation_id))
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
    _refuse_conflict(admin, compensation.dispute)
    _refuse_staff_filer(compensation.dispute)


@_refusals_recorded(ActionKind.APPROVE_COMPENSATION, "moderation.compensation")
@transaction.atomic
def approve_compensation(admin: User, compensation_id: Any, *, reason: str = "") -> Compensation:
    compensation = _lock_compensation(compensation_id)
    _decidable(admin, compensation)
    try:
        _pay(compensation, admin)
    except LedgerError as exc:
        raise ModerationError(exc.message, code=exc.code) from exc
    compensation.decided_by = admin
    compensation.decided_at = timezone.now()
    compensation.save(update_fields=["transfer", "status", "decided_by", "decided_at"])
    _audit(
        admin,
        ActionKind.APPROVE_COMPENSATION,
        compensation,
        reason=_clean_text(reason),
        before={"status": CompensationStatus.PENDING},
        after={"status": compensation.status, "transfer": compensation.transfer_id},
        dispute=compensation.dispute,
    )
    _notify(
        compensation.recipient_id,
        NotificationKind.COMPENSATED,
        dispute=compensation.dispute,
        amount=compensation.amount,
    )
    return compensation


@_refusals_recorded(ActionKind.REJECT_COMPENSATION, "moderation.compensation")
@transaction.atomic
def reject_compensation(admin: User, compensation_id: Any, *, reason: str) -> Compensation:
    reason = _require_reason(reason)
    compensation = _lock_compensation(compensation_id)
    _decidable(admin, compensation)
    compensation.status = CompensationStatus.REJECTED
    compensation.decided_by = admin
    compensation.decided_at = timezone.now()
    compensation.save(update_fields=["status", "decided_by", "decided_at"])
    _audit(
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


@_refusals_recorded(ActionKind.RESETTLE, "games.round")
@transaction.atomic
def resettle(
    moderator: User, round_id: Any, *, reason: str, dispute_id: Any = None
) -> Resettlement | None:
    """Pay a settled round again as its stored rules settle it. None: nothing was wrong.

    Idempotent: once the wallets match the correct result there is nothing left to move.
    """
    _require_moderator(moderator)
    reason = _require_reason(reason)
    try:
        # The round row lock keeps a concurrent re-settlement of this round out until we
        # commit (the ledger also serialises on the escrow).
        round_ = Round.objects.select_for_update().get(pk=_as_id(round_id))
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
        dispute = _lock_dispute(dispute_id)
        _require_handler(moderator, dispute)
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
    try:
        transfers = ledger.resettle_round(round_.pk, deltas, reason=reason, actor=moderator)
    except LedgerError as exc:
        raise ModerationError(exc.message, code=exc.code) from exc
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
    _audit(
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
            _notify(
                user_id, NotificationKind.RESETTLED, dispute=None, round=round_.pk, change=change
            )
    return resettlement


@_refusals_recorded(ActionKind.VOID_ROUND, "games.round")
@transaction.atomic
def void_round(moderator: User, round_id: Any, *, reason: str) -> Round:
    """Void a round still being played: every stake goes back, nobody wins or loses."""
    _require_moderator(moderator)
    reason = _require_reason(reason)
    # Voiding gives a losing player their stake back: never for a round one plays in.
    if RoundPlayer.objects.filter(round_id=_as_id(round_id), user=moderator).exists():
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
    except GameError as exc:
        raise ModerationError(exc.message, code=exc.code) from exc
    _audit(
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


# --- Sanctions ----------------------------------------------------------------------------


def _suspension(user: User) -> dict[str, Any]:
    until = user.suspended_until
    return {"until": until.isoformat() if until else None, "reason": user.suspension_reason}


def _hours(value: Any, refusal: Any) -> int:
    """A sanction's length from a form: 1 hour to 1 year."""
    hours = _int_or_none(value)
    if hours is None or not 1 <= hours <= 24 * 365:
        raise ModerationError(refusal, code="bad_duration")
    return hours


def _target_user(moderator: User, user_id: Any) -> User:
    user = User.objects.filter(pk=_as_id(user_id)).first()
    if user is None:
        raise NotFound()
    if user.pk == moderator.pk:
        raise Forbidden(_("You cannot sanction yourself."), code="self_sanction")
    if is_admin(user) and not is_admin(moderator):
        raise Forbidden(_("Only an admin can sanction an admin."), code="sanction_admin")
    return user


@_refusals_recorded(ActionKind.SUSPEND, "accounts.user")
@transaction.atomic
def suspend(moderator: User, user_id: Any, *, hours: Any, reason: str) -> User:
    """Suspend for a number of hours; the reason is shown to the user."""
    _require_moderator(moderator)
    reason = _require_reason(reason)
    hours = _hours(hours, _("A suspension lasts 1 hour to 1 year."))
    user = _target_user(moderator, user_id)
    before = _suspension(user)
    try:
        user = account_services.suspend_user(
            user, until=timezone.now() + timedelta(hours=hours), reason=reason
        )
    except AccountError as exc:
        raise ModerationError(exc.message, code=exc.code) from exc
    _audit(
        moderator, ActionKind.SUSPEND, user, reason=reason, before=before, after=_suspension(user)
    )
    until = timezone.localtime(user.suspended_until).strftime("%Y-%m-%d %H:%M")
    _notify(user.pk, NotificationKind.SUSPENDED, until=until, reason=reason)
    return user


@_refusals_recorded(ActionKind.LIFT_SUSPENSION, "accounts.user")
@transaction.atomic
def lift_suspension(moderator: User, user_id: Any, *, reason: str) -> User:
    _require_moderator(moderator)
    reason = _require_reason(reason)
    user = _target_user(moderator, user_id)
    before = _suspension(user)
    user = account_services.lift_suspension(user)
    _audit(
        moderator,
        ActionKind.LIFT_SUSPENSION,
        user,
        reason=reason,
        before=before,
        after=_suspension(user),
    )
    _notify(user.pk, NotificationKind.SUSPENSION_LIFTED)
    return user


def _mute_state(user: User) -> dict[str, Any]:
    mute = Mute.objects.filter(user=user).first()
    if mute is None or mute.until <= timezone.now():
        return {"until": None}
    return {"until": mute.until.isoformat(), "reason": mute.reason}


@_refusals_recorded(ActionKind.MUTE, "accounts.user")
@transaction.atomic
def mute(moderator: User, user_id: Any, *, hours: Any, reason: str) -> Mute:
    """Silence a user's table talk for a number of hours; they still play."""
    _require_moderator(moderator)
    reason = _require_reason(reason)
    hours = _hours(hours, _("A mute lasts 1 hour to 1 year."))
    user = _target_user(moderator, user_id)
    before = _mute_state(user)
    muted, _created = Mute.objects.update_or_create(
        user=user,
        defaults={
            "until": timezone.now() + timedelta(hours=hours),
            "reason": reason,
            "by": moderator,
        },
    )
    _audit(moderator, ActionKind.MUTE, user, reason=reason, before=before, after=_mute_state(user))
    return muted


@_refusals_recorded(ActionKind.UNMUTE, "accounts.user")
@transaction.atomic
def unmute(moderator: User, user_id: Any, *, reason: str) -> User:
    _require_moderator(moderator)
    reason = _require_reason(reason)
    user = _target_user(moderator, user_id)
    before = _mute_state(user)
    Mute.objects.filter(user=user).update(until=timezone.now())
    _audit(
        moderator, ActionKind.UNMUTE, user, reason=reason, before=before, after=_mute_state(user)
    )
    return user


# --- Tables -------------------------------------------------------------------------------


@_refusals_recorded(ActionKind.CLOSE_TABLE, "games.table")
@transaction.atomic
def close_table(moderator: User, table_id: Any, *, reason: str) -> Table:
    """Close a table (it leaves the lobby); a round in progress plays on, nothing is voided."""
    _require_moderator(moderator)
    reason = _require_reason(reason)
    table = Table.objects.filter(pk=_as_id(table_id)).first()
    if table is None:
        raise NotFound()
    before = {"open": table.is_open, "seated": table.seat_set.count()}
    closed = games.close_table(table.pk) or table  # None only for the sweep's conditional close
    _audit(
        moderator,
        ActionKind.CLOSE_TABLE,
        closed,
        reason=reason,
        before=before,
        after={"open": closed.is_open, "round_running": active_round(closed) is not None},
    )
    return closed


# --- Addresses (collusion signals) -------------------------------------------------------


def record_user_ip(user: User, ip: str) -> None:
    """Remember the address of the user's latest request (one row per user)."""
    UserIP.objects.update_or_create(user=user, defaults={"ip": ip})


def record_seat_ips(table_id: int) -> int:
    """Note the latest known address of everyone seated at this table now."""
    seated = Seat.objects.filter(table_id=table_id).values_list("user_id", flat=True)
    count = 0
    for row in UserIP.objects.filter(user_id__in=list(seated)):
        _seat_ip, created = SeatIP.objects.update_or_create(
            user_id=row.user_id, table_id=table_id, ip=row.ip
        )
        count += created
    return count


# --- Tournament prizes held for review (docs/moderation.md) ------------------------------


def _hold_entrants(hold: PrizeHold) -> list[int]:
    """The people who bought in to the held tournament or are owed one of its prizes."""
    ids = ledger_selectors.prize_hold_entrants(hold.tournament_id)
    return list(User.objects.filter(pk__in=ids, is_bot=False).values_list("pk", flat=True))


def notify_prize_hold(tournament_id: int) -> int:
    """Tell each entrant that the tournament's prizes are under review (once each)."""
    hold = ledger_selectors.prize_hold(tournament_id)
    if hold is None:
        return 0
    told = set(
        Notification.objects.filter(
            kind=NotificationKind.PRIZES_HELD, params__tournament_id=tournament_id
        ).values_list("user_id", flat=True)
    )
    fresh = [user for user in _hold_entrants(hold) if user not in told]
    Notification.objects.bulk_create(
        Notification(
            user_id=user,
            kind=NotificationKind.PRIZES_HELD,
            params={"tournament_id": tournament_id, "tournament": hold.title, "url": hold.url},
        )
        for user in fresh
    )
    return len(fresh)


DECISIONS = {
    "release": (HoldOutcome.RELEASED, ActionKind.RELEASE_PRIZES, NotificationKind.PRIZES_RELEASED),
    "return": (HoldOutcome.RETURNED, ActionKind.RETURN_BUY_INS, NotificationKind.BUY_INS_RETURNED),
}


@_refusals_recorded("decide_prizes", "tournaments.tournament")
@transaction.atomic
def decide_prizes(
    moderator: User, tournament_id: Any, *, decision: str, reason: str
) -> tuple[PrizeHoldDecision, bool]:
    """A moderator decides a tournament's held prizes: ``release`` (the recorded prizes are
    paid) or ``return`` (each buy-in goes back). Once: a repeat of the same decision (a
    double click, a second tab) changes nothing and is not logged again; the other one is
    refused. Returns (the decision, whether this call made it)."""
    _require_moderator(moderator)
    if decision not in DECISIONS:
        raise ModerationError(_("Choose to release the prizes or return the buy-ins."))
    outcome, action, kind = DECISIONS[decision]
    reason = _require_reason(reason)
    hold = ledger_selectors.prize_hold(_as_id(tournament_id))
    if hold is None:
        raise NotFound()
    entrants = _hold_entrants(hold)
    # Deciding who is paid: never for a tournament one played in.
    if moderator.pk in ledger_selectors.prize_hold_entrants(hold.tournament_id):
        raise Forbidden(
            _("You played in this tournament: another staff member must decide its prizes."),
            code="conflict_of_interest",
        )
    decide = ledger.release_prizes if outcome == HoldOutcome.RELEASED else ledger.return_buy_ins
    try:
        made, new = decide(hold.tournament_id, actor=moderator, reason=reason)
    except LedgerError as exc:
        raise ModerationError(exc.message, code=exc.code) from exc
    if new:
        _audit(
            moderator,
            action,
            hold,
            reason=reason,
            before={"status": "pending", "prizes": hold.prizes, "findings": hold.findings},
            after={"outcome": made.outcome, "paid": made.paid},
        )
        Notification.objects.bulk_create(
            Notification(
                user_id=user,
                kind=kind,
                params={
                    "tournament_id": hold.tournament_id,
                    "tournament": hold.title,
                    "url": hold.url,
                },
            )
            for user in entrants
        )
    return made, new
