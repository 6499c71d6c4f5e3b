"""Disputes and reports, remedies, the staff audit log and seat IPs (a player hears of a
case through ``notices.Notification``).

`StaffAction` is append-only in PostgreSQL (core.dbguards, in migration
0001_squashed_0010_delete_notification), like the ledger's history.
Rows are written only by `moderation.services`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class CaseKind(models.TextChoices):
    DISPUTE = "dispute", _("Dispute")
    REPORT = "report", _("Player report")


class Category(models.TextChoices):
    WRONG_RESULT = "wrong_result", _("Wrong result")
    DISCONNECT = "disconnect", _("Disconnect")
    COLLUSION = "collusion", _("Suspected collusion")
    CHAT = "chat", _("Abusive table talk")
    OTHER = "other", _("Other")


class Status(models.TextChoices):
    OPEN = "open", _("Open")
    IN_REVIEW = "in_review", _("In review")
    RESOLVED = "resolved", _("Resolved")


class Outcome(models.TextChoices):
    UPHELD = "upheld", _("Upheld")
    REJECTED = "rejected", _("Rejected")


class Dispute(models.Model):
    """A player's dispute of a finished round, or a report of another player."""

    kind = models.CharField(_("kind"), max_length=8, choices=CaseKind.choices)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("filed by"),
        on_delete=models.PROTECT,
        related_name="disputes_filed",
    )
    round = models.ForeignKey(
        "games.Round",
        verbose_name=_("round"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disputes",
    )
    table = models.ForeignKey(
        "games.Table",
        verbose_name=_("table"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disputes",
    )
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported player"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports_against",
    )
    category = models.CharField(_("category"), max_length=16, choices=Category.choices)
    text = models.TextField(_("what happened"), max_length=2000, blank=True)
    # What the case carries besides the text: for a reported chat message, the message and
    # the table talk around it as they were when reported (``chat.services.report_message``).
    evidence: Any = models.JSONField(_("evidence"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("moderator"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disputes_claimed",
    )
    claimed_at = models.DateTimeField(_("claimed"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices, blank=True)
    resolution = models.TextField(_("resolution"), blank=True)
    resolved_at = models.DateTimeField(_("resolved"), null=True, blank=True)
    created_at = models.DateTimeField(_("filed"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        ordering = ["created_at"]
        constraints = [
            # One open dispute per user per round (a resolved one does not block a new one).
            models.UniqueConstraint(
                fields=["filed_by", "round"],
                condition=Q(kind="dispute") & ~Q(status="resolved"),
                name="moderation_one_open_dispute_per_round",
            ),
            models.CheckConstraint(
                condition=Q(kind="report", reported_user__isnull=False)
                | Q(kind="dispute", round__isnull=False),
                name="moderation_case_has_its_subject",
            ),
            # Nobody handles a case they filed or that reports them (the players of the
            # round are checked by the services: a CHECK cannot see another table).
            models.CheckConstraint(
                condition=Q(moderator__isnull=True)
                | (
                    ~Q(moderator=models.F("filed_by"))
                    & (Q(reported_user__isnull=True) | ~Q(moderator=models.F("reported_user")))
                ),
                name="moderation_not_own_case",
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="moderation_queue_idx")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind} {self.category}"


class ModeratorLimit(models.Model):
    """What one moderator pays alone, in xu (else the site's settings apply).

    Set by an admin other than the moderator (a CHECK constraint holds it too); it does not
    scale with anything a moderator or a player chooses, such as a table's stake.
    """

    moderator = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("moderator"),
        on_delete=models.CASCADE,
        related_name="compensation_limit",
        primary_key=True,
    )
    per_payment = models.PositiveBigIntegerField(_("limit per payment (xu)"))
    per_day = models.PositiveBigIntegerField(_("limit per 24 hours (xu)"))
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("set by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    set_at = models.DateTimeField(_("set"), auto_now=True)

    class Meta:
        verbose_name = _("compensation limit")
        verbose_name_plural = _("compensation limits")
        constraints = [
            # Nobody sets their own limit.
            models.CheckConstraint(
                condition=~Q(set_by=models.F("moderator")), name="moderation_limit_not_own"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.moderator_id}: {self.per_payment} xu, {self.per_day} xu / 24 h"


class ActionKind(models.TextChoices):
    CLAIM = "claim", _("Claimed a case")
    RESOLVE = "resolve", _("Resolved a case")
    VIEW_REPLAY = "view_replay", _("Viewed a round replay")
    COMPENSATE = "compensate", _("Paid a compensation")
    REQUEST_COMPENSATION = "request_compensation", _("Asked for approval of a compensation")
    APPROVE_COMPENSATION = "approve_compensation", _("Approved a compensation")
    REJECT_COMPENSATION = "reject_compensation", _("Rejected a compensation")
    RESETTLE = "resettle", _("Re-settled a round")
    SUSPEND = "suspend", _("Suspended a user")
    LIFT_SUSPENSION = "lift_suspension", _("Lifted a suspension")
    SET_LIMIT = "set_limit", _("Set a moderator's compensation limit")
    VOID_ROUND = "void_round", _("Voided a round")
    REFUSED = "refused", _("Was refused an action")
    CLOSE_TABLE = "close_table", _("Closed a table")
    VIEW_PRIVATE_TABLE = "view_private_table", _("Opened a private table without an invite")
    MUTE = "mute", _("Muted a user's table talk")
    UNMUTE = "unmute", _("Lifted a mute")
    OPEN_BOARD = "open_board", _("Opened a duplicate board before its reveal")
    RELEASE_PRIZES = "release_prizes", _("Released a tournament's held prizes")
    RETURN_BUY_INS = "return_buy_ins", _("Returned a tournament's buy-ins instead of its prizes")


class StaffAction(models.Model):
    """One thing a staff member did. Append-only: never updated, never deleted."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("staff member"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    action = models.CharField(_("action"), max_length=24, choices=ActionKind.choices)
    target_type = models.CharField(_("target type"), max_length=32)
    target_id = models.CharField(_("target id"), max_length=32)
    target_repr = models.CharField(_("target"), max_length=200)
    reason = models.TextField(_("reason"), blank=True)
    before: Any = models.JSONField(_("before"), default=dict, blank=True)
    after: Any = models.JSONField(_("after"), default=dict, blank=True)
    dispute = models.ForeignKey(
        Dispute,
        verbose_name=_("case"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="actions",
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("staff action")
        verbose_name_plural = _("staff audit log")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_id} {self.action} {self.target_repr}"


class Mute(models.Model):
    """Staff silenced a user's table talk until ``until`` (one row per user, kept when lifted)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="staff_mute",
    )
    until = models.DateTimeField(_("muted until"))
    reason = models.TextField(_("reason"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("muted by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("time"), auto_now=True)

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")

    def __str__(self) -> str:
        return f"{self.user_id} muted until {self.until:%Y-%m-%d %H:%M}"


class CompensationStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for approval")
    PAID = "paid", _("Paid")
    REJECTED = "rejected", _("Rejected")


class Compensation(models.Model):
    """A compensating transfer for a case; above the moderator's limit an admin approves."""

    dispute = models.ForeignKey(
        Dispute, verbose_name=_("case"), on_delete=models.PROTECT, related_name="compensations"
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recipient"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    amount = models.PositiveBigIntegerField(_("amount (xu)"))
    reason = models.TextField(_("reason"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    status = models.CharField(_("status"), max_length=8, choices=CompensationStatus.choices)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("approved or rejected by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    transfer = models.OneToOneField(
        "ledger.Transfer",
        verbose_name=_("transfer"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("requested"), auto_now_add=True)

    class Meta:
        verbose_name = _("compensation")
        verbose_name_plural = _("compensations")
        ordering = ["-created_at"]
        constraints = [
            # Four eyes: whoever approves a request is not whoever asked for it.
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=models.F("requested_by")),
                name="moderation_four_eyes",
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="moderation_amount_positive"),
            # Nobody is paid by a compensation they asked for or decided.
            models.CheckConstraint(
                condition=~Q(recipient=models.F("requested_by")),
                name="moderation_not_paid_by_own_request",
            ),
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=models.F("recipient")),
                name="moderation_not_paid_by_own_decision",
            ),
            # One compensation per case, paid or waiting; a rejected one can be asked again.
            models.UniqueConstraint(
                fields=["dispute"],
                condition=~Q(status="rejected"),
                name="moderation_one_compensation_per_case",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.amount} xu → {self.recipient_id} ({self.status})"


class Resettlement(models.Model):
    """A round settled again under its stored rules: what was paid and what is right."""

    round = models.ForeignKey(
        "games.Round",
        verbose_name=_("round"),
        on_delete=models.PROTECT,
        related_name="resettlements",
    )
    dispute = models.ForeignKey(
        Dispute,
        verbose_name=_("case"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="resettlements",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("staff member"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    reason = models.TextField(_("reason"))
    paid: Any = models.JSONField(_("paid before"), default=dict)
    corrected: Any = models.JSONField(_("correct result"), default=dict)
    transfer_ids: Any = models.JSONField(_("transfers"), default=list)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("re-settlement")
        verbose_name_plural = _("re-settlements")

    def __str__(self) -> str:
        return f"round {self.round_id} re-settled"


class SeatIP(models.Model):
    """The address a player was last seen from when they sat at a table (collusion signal)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    ip = models.GenericIPAddressField()
    first_seen = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("seat address")
        verbose_name_plural = _("seat addresses")
        constraints = [
            models.UniqueConstraint(fields=["user", "table", "ip"], name="moderation_seat_ip_once")
        ]
        indexes = [models.Index(fields=["table", "ip"], name="moderation_seat_ip_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id} from {self.ip}"


class UserIP(models.Model):
    """The address of a user's latest HTTP request (the middleware keeps it current)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", primary_key=True
    )
    ip = models.GenericIPAddressField()
    seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("user address")
        verbose_name_plural = _("user addresses")

    def __str__(self) -> str:
        return f"{self.user_id} {self.ip}"
