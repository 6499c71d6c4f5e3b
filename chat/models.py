"""Table talk: each table's chat settings, messages, players' own mutes and reports.

Rows are written only by `chat.services`; messages are deleted after CHAT_RETENTION_DAYS
(`chat.services.delete_expired`) unless a moderation case that is still open carries them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Spectators(models.TextChoices):
    READ = "read", _("Spectators read the players' chat")
    OWN = "own", _("Spectators also talk among themselves")
    TALK = "talk", _("Spectators talk with the players")


class Channel(models.TextChoices):
    PLAYERS = "players", _("Players")
    SPECTATORS = "spectators", _("Spectators")


class ChatSettings(models.Model):
    """The host's choices for a table's talk (a table without a row has the defaults)."""

    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="chat_settings", primary_key=True
    )
    spectators = models.CharField(
        _("spectators"), max_length=8, choices=Spectators.choices, default=Spectators.READ
    )
    word_filter = models.BooleanField(_("mask swear words"), default=True)

    class Meta:
        verbose_name = _("chat settings")
        verbose_name_plural = _("chat settings")

    def __str__(self) -> str:
        return f"table {self.table_id}: {self.spectators}, filter {self.word_filter}"


class ChatMessage(models.Model):
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    # The table's latest round when it was said: its replay shows it.
    round = models.ForeignKey(
        "games.Round", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.PLAYERS)
    # What the table read (masked when the table's filter is on); a quick phrase has its id
    # and no text (each reader sees it in their language).
    text = models.CharField(max_length=400, blank=True)
    phrase = models.CharField(max_length=24, blank=True)
    # As typed, when the filter changed it: moderators see what was really said.
    raw = models.CharField(max_length=400, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["table", "created_at"], name="chat_table_time_idx")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.sender_id}@{self.table_id}: {self.text or self.phrase}"


class PersonalMute(models.Model):
    """``viewer`` no longer sees ``muted``'s messages and reactions, at every table."""

    viewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["viewer", "muted"], name="chat_mute_unique_pair"),
            models.CheckConstraint(condition=~Q(viewer=F("muted")), name="chat_mute_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.viewer_id} mutes {self.muted_id}"


class ReportedMessage(models.Model):
    """A message a moderation case carries (reported, or its context): kept while it is open."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    case = models.ForeignKey("moderation.Dispute", on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "case"], name="chat_report_unique")
        ]

    def __str__(self) -> str:
        return f"message {self.message_id} in case {self.case_id}"
