"""The daily hand: one committed deal a day, and each player's one scored attempt at it.

A day's server seed is drawn (and its SHA-256 published) days ahead, and revealed when the
day is over; the hand is seat 1 of the ordinary provably-fair deal from that seed, so
``games.rules.fair.verify_deal`` proves it like any round. Endless practice hands are not
stored (they live in the player's session): see docs/practice.md.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class DailyDeal(models.Model):
    day = models.DateField(_("day"), unique=True)
    preset = models.CharField(_("rules preset"), max_length=16, default="portal")
    server_seed = models.CharField(_("server seed"), max_length=64)
    """Secret until the day is over (see ``selectors.revealed``)."""
    server_seed_hash = models.CharField(_("server seed hash"), max_length=64)
    client_seed = models.CharField(_("client seed"), max_length=40)
    """Public and fixed by the day: ``daily:YYYY-MM-DD``."""
    hands = models.JSONField(_("hands"))
    """The four hands of the deal ("AS"-style strings, seat order); seat 1 is the daily hand."""
    best = models.JSONField(_("best arrangement"), null=True, blank=True)
    """The engine's best arrangement and its appraisal, cached the first time it is needed."""
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-day"]
        verbose_name = _("daily hand")
        verbose_name_plural = _("daily hands")

    def __str__(self) -> str:
        return self.day.isoformat()

    @property
    def cards(self) -> list[str]:
        """The daily hand: seat 1 of the deal."""
        return list(self.hands[0])


class DailyAttempt(models.Model):
    deal = models.ForeignKey(DailyDeal, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_attempts"
    )
    chi = models.JSONField(_("arrangement"))
    """The three chi as submitted ("AS"-style strings)."""
    ev = models.FloatField(_("expected units"))
    win = models.JSONField(_("win chances per chi"))
    tie = models.JSONField(_("tie chances per chi"))
    instant = models.CharField(max_length=32, blank=True, default="")
    submitted_at = models.DateTimeField(_("submitted at"), auto_now_add=True)

    class Meta:
        ordering = ["-ev", "submitted_at"]
        constraints = [
            # One scored attempt per player and day: a second submit (another tab, a
            # double click) hits this and is refused.
            models.UniqueConstraint(fields=["deal", "user"], name="one_daily_attempt_per_player")
        ]
        indexes = [models.Index(fields=["deal", "-ev", "submitted_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} @ {self.deal_id}: {self.ev:.2f}"
