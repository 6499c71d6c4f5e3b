"""Players: they dispute a round, report a player or a chat message, read their notices."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Round, RoundPlayer, Seat, Table
from moderation.errors import ModerationError, NotFound
from moderation.models import CaseKind, Category, Dispute, Status
from moderation.services.base import as_id, clean_case_text, notify
from notices.models import NotificationKind


def dispute_window() -> timedelta:
    return timedelta(days=settings.MODERATION_DISPUTE_WINDOW_DAYS)


@transaction.atomic
def file_dispute(
    user: User, round_id: Any, *, category: str, text: str, now: datetime | None = None
) -> Dispute:
    """A participant disputes a finished round, within the window, once while it is open."""
    now = now or timezone.now()
    try:
        round_ = Round.objects.get(pk=as_id(round_id))
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
    text = clean_case_text(text)
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
    notify(user.pk, NotificationKind.CASE_FILED, dispute=dispute)
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
    reported = User.objects.filter(pk=as_id(reported_id)).first()
    if reported is None:
        raise NotFound()
    if reported.pk == reporter.pk:
        raise ModerationError(_("You cannot report yourself."), code="self_report")
    if category not in Category.values:
        raise ModerationError(_("Choose a category."), code="bad_category")
    text = clean_case_text(text)
    if not text:
        raise ModerationError(_("Tell us what happened."), code="text_required")
    round_: Round | None = None
    table: Table | None = None
    if round_id not in (None, ""):
        round_ = Round.objects.filter(pk=as_id(round_id)).first()
        played = RoundPlayer.objects.filter(round=round_, user__in=[reporter, reported])
        if round_ is None or played.count() != 2:
            raise NotFound(_("You can only report a player of a round you played."))
        table = round_.table
    elif table_id not in (None, ""):
        table = Table.objects.filter(pk=as_id(table_id)).first()
        if table is None or not Seat.objects.filter(table=table, user=reporter).exists():
            raise NotFound(_("You can only report a player at a table where you sit."))
    return _reported(
        reporter,
        reported_user=reported,
        round=round_,
        table=table,
        category=category,
        text=text.strip(),
    )


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
    return _reported(
        reporter,
        reported_user_id=reported_id,
        round_id=round_id,
        table_id=table_id,
        category=Category.CHAT,
        text=clean_case_text(text),
        evidence=evidence,
    )


def _reported(reporter: User, **case: Any) -> Dispute:
    """The report as a case, and its reporter told it was received."""
    dispute = Dispute.objects.create(kind=CaseKind.REPORT, filed_by=reporter, **case)
    notify(reporter.pk, NotificationKind.CASE_FILED, dispute=dispute)
    return dispute
