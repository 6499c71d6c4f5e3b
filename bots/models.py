"""Bot players: real accounts (``User.is_bot``) with a profile, and the bot-only tables.

A bot plays through the same services as a person; its profile only says how it plays.
Rows change only through ``bots.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Table


class Difficulty(models.TextChoices):
    EASY = "easy", _("easy")
    """Plays a random one of the auto-arrange suggestions (all legal, not always the best)."""
    NORMAL = "normal", _("normal")
    """Plays the best suggestion."""


class Bot(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="bot_profile"
    )
    difficulty = models.CharField(
        _("difficulty"), max_length=8, choices=Difficulty.choices, default=Difficulty.NORMAL
    )
    # Counts the top-ups, so each one has its own idempotency key in the ledger.
    topups = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("bot")
        verbose_name_plural = _("bots")

    def __str__(self) -> str:
        return f"{self.user.shown_name} ({self.difficulty})"


class BotOnlyTable(models.Model):
    """A table where bots keep playing with nobody watching (demos and load tests).

    At any other table bots leave when the last person has left.
    """

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="bot_only")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("bot-only table")
        verbose_name_plural = _("bot-only tables")

    def __str__(self) -> str:
        return str(self.table)
