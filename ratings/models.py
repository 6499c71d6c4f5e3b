"""A rating per player and rules preset, and each settled round's change to it.

Both are written only by ``ratings.services.rate_round``, inside the settlement's
transaction (docs/ratings.md): a rated round has exactly one ``RatingChange`` per player,
unique on (round, player), so a round is never rated twice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    """OpenSkill's (mu, sigma) for one player at one preset, and the number shown."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    preset = models.CharField(max_length=16)
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField()
    """The rating shown: ratings.services.displayed(mu, sigma), kept for the board's index."""
    rounds = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "preset"], name="rating_user_preset")
        ]
        indexes = [
            # The rating board of a preset, best first: one index scan (and own rank a count).
            models.Index(fields=["preset", "-display", "user"], name="rating_board"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.preset}: {self.display}"


class RatingChange(models.Model):
    """What one settled round did to one player's rating."""

    round = models.ForeignKey("games.Round", on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    preset = models.CharField(max_length=16)
    rank = models.PositiveSmallIntegerField()
    """The player's place in the round by net units (1 = best; ties share a place)."""
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "user"], name="ratingchange_round_user")
        ]
        indexes = [models.Index(fields=["user", "-round"], name="ratingchange_user_round")]

    def __str__(self) -> str:
        return (
            f"round {self.round_id} user {self.user_id}: {self.display_before}→{self.display_after}"
        )
