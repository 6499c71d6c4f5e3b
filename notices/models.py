"""One notification model for the whole site; the text is rendered in the reader's language.

A notice names its ``kind`` and keeps what its text needs: who caused it (``actor``, a
friend), a table's name, a link, and ``params`` (the case, an amount, a tournament...).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.formats import format_signed_xu, format_xu


class NotificationKind(models.TextChoices):
    # From other players (social)
    FRIEND_REQUEST = "friend_request", _("Friend request")
    FRIEND_ACCEPTED = "friend_accepted", _("Friend request accepted")
    TABLE_INVITE = "table_invite", _("Invitation to a table")
    CHALLENGE = "challenge", _("Challenge to a heads-up table")
    # From the staff (moderation)
    CASE_FILED = "case_filed", _("Case received")
    CASE_CLAIMED = "case_claimed", _("Case in review")
    CASE_RESOLVED = "case_resolved", _("Case resolved")
    COMPENSATED = "compensated", _("Compensation paid")
    RESETTLED = "resettled", _("Round re-settled")
    SUSPENDED = "suspended", _("Account suspended")
    SUSPENSION_LIFTED = "suspension_lifted", _("Suspension lifted")
    PRIZES_HELD = "prizes_held", _("Tournament prizes under review")
    PRIZES_RELEASED = "prizes_released", _("Tournament prizes released")
    BUY_INS_RETURNED = "buy_ins_returned", _("Tournament buy-ins returned")


SOCIAL_KINDS = frozenset(
    {
        NotificationKind.FRIEND_REQUEST,
        NotificationKind.FRIEND_ACCEPTED,
        NotificationKind.TABLE_INVITE,
        NotificationKind.CHALLENGE,
    }
)

# A resolved case's outcome in words: the labels of moderation.models.Outcome (the same
# msgids, so one translation; tests/notices/test_messages.py holds the two together).
CASE_OUTCOMES = {"upheld": _("Upheld"), "rejected": _("Rejected")}


class Notification(models.Model):
    """A message to a player, from another player or from the staff."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    # Who the notice is about: the friend who asked or invited (none for the staff's).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    table_name = models.CharField(max_length=60, blank=True, default="")
    # Where the notice leads: a table, a case (the inbox's link).
    url = models.CharField(max_length=300, blank=True, default="")
    params: Any = models.JSONField(default=dict, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # Not auto_now_add: a renewed notice moves to the top (notices.services), and the rows
    # moved here from the two old tables keep their dates.
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "read_at"], name="notices_unread_idx")]
        constraints = [
            # Repeated notices of one kind from one player coalesce into one unread
            # notification, renewed rather than repeated (notices.services.renew_or_notify).
            models.UniqueConstraint(
                fields=["user", "kind", "actor"],
                condition=Q(read_at__isnull=True, actor__isnull=False),
                name="notices_one_unread_per_actor",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}"

    @property
    def source(self) -> str:
        """Who speaks: ``social`` (another player) or ``moderation`` (the staff)."""
        return "social" if self.kind in SOCIAL_KINDS else "moderation"

    @property
    def link(self) -> str:
        """Where the notice leads, if anywhere (a table, a case, a tournament)."""
        return self.url or str(self.params.get("url", ""))

    @property
    def message(self) -> str:
        if self.kind in SOCIAL_KINDS:
            return self._from_a_player()
        p = {"case": None, **self.params}
        messages = {
            NotificationKind.CASE_FILED: gettext("We received your case #%(case)s."),
            NotificationKind.CASE_CLAIMED: gettext("A moderator is reviewing your case #%(case)s."),
            NotificationKind.CASE_RESOLVED: gettext(
                "Your case #%(case)s was resolved: %(outcome)s. %(resolution)s"
            ),
            NotificationKind.COMPENSATED: gettext(
                "You received a compensation of %(amount)s xu for case #%(case)s."
            ),
            NotificationKind.RESETTLED: gettext(
                "Round #%(round)s was settled again; your balance changed by %(change)s xu."
            ),
            NotificationKind.SUSPENDED: gettext(
                "Your account is suspended until %(until)s: %(reason)s"
            ),
            NotificationKind.SUSPENSION_LIFTED: gettext("Your suspension was lifted."),
            NotificationKind.PRIZES_HELD: gettext(
                "The prizes of the tournament “%(tournament)s” are under review: a moderator"
                " will pay them or return every buy-in. Nothing is paid until then."
            ),
            NotificationKind.PRIZES_RELEASED: gettext(
                "The prizes of the tournament “%(tournament)s” were reviewed and paid."
            ),
            NotificationKind.BUY_INS_RETURNED: gettext(
                "The tournament “%(tournament)s” was reviewed: its prizes are not paid and"
                " every buy-in was returned."
            ),
        }
        if "amount" in p:
            p["amount"] = format_xu(p["amount"])
        if "change" in p:
            p["change"] = format_signed_xu(p["change"])
        if "outcome" in p:
            p["outcome"] = str(CASE_OUTCOMES[p["outcome"]])
        return messages[NotificationKind(self.kind)] % p

    def _from_a_player(self) -> str:
        name = self.actor.shown_name if self.actor else ""
        if self.kind == NotificationKind.FRIEND_REQUEST:
            return gettext("%(name)s wants to be your friend.") % {"name": name}
        if self.kind == NotificationKind.FRIEND_ACCEPTED:
            return gettext("%(name)s accepted your friend request.") % {"name": name}
        if self.kind == NotificationKind.CHALLENGE:
            return gettext("%(name)s challenges you to a heads-up table at %(stake)s xu a chi.") % {
                "name": name,
                "stake": format_xu(self.params.get("stake", 0)),
            }
        return gettext("%(name)s invites you to the table “%(table)s”.") % {
            "name": name,
            "table": self.table_name,
        }
