"""Moderators take a case and close it; what staff look at is recorded (a private table,
a replay, a duplicate board before its reveal)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Round, Table
from games.services import duplicate as games_duplicate
from moderation.errors import ModerationError, NotFound
from moderation.models import ActionKind, Dispute, Outcome, StaffAction, Status
from moderation.roles import holds_staff_role
from moderation.services.base import (
    as_id,
    audit,
    dispute_state,
    lock_dispute,
    notify,
    refusals_as_moderation,
    refusals_recorded,
    refuse_conflict,
    require_handler,
    require_moderator,
    require_reason,
)
from notices.models import NotificationKind


@refusals_recorded(ActionKind.CLAIM, "moderation.dispute")
@transaction.atomic
def claim(moderator: User, dispute_id: Any) -> Dispute:
    require_moderator(moderator)
    dispute = lock_dispute(dispute_id)
    refuse_conflict(moderator, dispute)
    if dispute.status == Status.IN_REVIEW and dispute.moderator_id == moderator.pk:
        return dispute  # a double click claims once
    if dispute.status != Status.OPEN:
        raise ModerationError(
            _("This case was already claimed by another moderator."), code="already_claimed"
        )
    before = dispute_state(dispute)
    dispute.status = Status.IN_REVIEW
    dispute.moderator = moderator
    dispute.claimed_at = timezone.now()
    dispute.save(update_fields=["status", "moderator", "claimed_at"])
    audit(
        moderator,
        ActionKind.CLAIM,
        dispute,
        before=before,
        after=dispute_state(dispute),
        dispute=dispute,
    )
    notify(dispute.filed_by_id, NotificationKind.CASE_CLAIMED, dispute=dispute)
    return dispute


@refusals_recorded(ActionKind.RESOLVE, "moderation.dispute")
@transaction.atomic
def resolve(moderator: User, dispute_id: Any, *, outcome: str, resolution: str) -> Dispute:
    """Close a case as upheld or rejected with a text the player sees."""
    require_moderator(moderator)
    resolution = require_reason(resolution)
    if outcome not in Outcome.values:
        raise ModerationError(_("Choose upheld or rejected."), code="bad_outcome")
    dispute = lock_dispute(dispute_id)
    require_handler(moderator, dispute)
    before = dispute_state(dispute)
    dispute.status = Status.RESOLVED
    dispute.outcome = outcome
    dispute.resolution = resolution
    dispute.resolved_at = timezone.now()
    dispute.save(update_fields=["status", "outcome", "resolution", "resolved_at"])
    audit(
        moderator,
        ActionKind.RESOLVE,
        dispute,
        reason=resolution,
        before=before,
        after=dispute_state(dispute),
        dispute=dispute,
    )
    notify(
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
    return audit(staff, ActionKind.VIEW_PRIVATE_TABLE, table)


def record_replay_view(moderator: User, round_: Round) -> StaffAction:
    """Seeing every player's cards is a staff action too; admins can see who looked."""
    require_moderator(moderator)
    return audit(moderator, ActionKind.VIEW_REPLAY, round_)


@refusals_as_moderation
@transaction.atomic
def open_board(moderator: User, round_id: Any) -> StaffAction | None:
    """Open a finished round of a duplicate board before the board's reveal (its replay).

    Recorded twice, in one transaction: ``games.services.duplicate.record_board_seen``
    (from now on no table deals the board to this staff member and its cards are no secret
    for them, docs/duplicate.md) and the audit log. None: the board holds no secret for
    them (revealed, or played or opened before). Refused while the round is live (nobody
    sees those hands) and while they play a round of the board themselves.
    """
    require_moderator(moderator)
    round_ = Round.objects.select_related("board").filter(pk=as_id(round_id)).first()
    if round_ is None:
        raise NotFound()
    if not round_.is_finished:
        raise ModerationError(
            _("This round is still being played: nobody sees its hands yet."), code="round_live"
        )
    seen = games_duplicate.record_board_seen(moderator, round_, why="moderation_replay")
    if seen is None or round_.board is None:
        return None
    board = round_.board
    return audit(
        moderator,
        ActionKind.OPEN_BOARD,
        round_,
        after={"schedule": board.schedule_id, "board": board.number},
    )
