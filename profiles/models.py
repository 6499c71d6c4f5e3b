"""Profiles (avatars) and the statistics summary behind profiles and leaderboards.

``RoundStat`` is one row per player per settled round, ``PeriodTotal`` the running sums
per player, preset and period (a day, an ISO week, all time). Both are written only by
``profiles.services.record_settled_rounds`` (a scheduled task, see docs/profiles.md), from
the rounds' settlement and the ledger; nothing else writes them.
"""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# The number of generated avatars a player chooses from (profiles.avatars draws them).
GENERATED_AVATARS = 12
# The start of the all-time period (a date column needs a value; every row shares it).
ALL_TIME = date(2000, 1, 1)


class Profile(models.Model):
    """What a player chose for their public page (the display name lives on the user)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    avatar = models.PositiveSmallIntegerField(_("avatar"), default=0)
    """Which generated avatar (0 .. GENERATED_AVATARS-1); ignored while an upload exists."""
    # Grows with every avatar change: it is in the avatar's address, so caches never serve
    # the old picture and the picture itself can be cached for a long time.
    avatar_version = models.PositiveIntegerField(default=0)
    has_upload = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(avatar__lt=GENERATED_AVATARS), name="profile_avatar_in_set"
            )
        ]

    def __str__(self) -> str:
        return f"profile of {self.user_id}"


class UploadedAvatar(models.Model):
    """A re-encoded upload (never the original bytes, never the user's file name)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    data = models.BinaryField()
    content_type = models.CharField(max_length=32)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"avatar of {self.user_id} ({len(self.data)} bytes)"


class ScoopKind(models.TextChoices):
    ONE = "one", _("sập 3 chi")
    ALL = "all", _("sập làng")


class RoundStat(models.Model):
    """One player's figures in one settled round (the player's side of the settlement)."""

    round = models.ForeignKey("games.Round", on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    preset = models.CharField(max_length=16)
    stake = models.PositiveIntegerField()
    settled_at = models.DateTimeField()
    net_xu = models.BigIntegerField()
    """What the round did to the wallet, from the ledger: payout less stake and fee."""
    # Chi contests: one per chi per opponent compared chi by chi (not in an instant pair).
    contests = models.PositiveSmallIntegerField(default=0)
    chi1_won = models.PositiveSmallIntegerField(default=0)
    chi2_won = models.PositiveSmallIntegerField(default=0)
    chi3_won = models.PositiveSmallIntegerField(default=0)
    foul = models.BooleanField(default=False)
    instant_kind = models.CharField(max_length=32, blank=True, default="")
    """The mậu binh hand that won this round for the player ("" if none)."""
    scoop_kind = models.CharField(max_length=8, choices=ScoopKind.choices, blank=True)
    """The biggest scoop the player made ("" if none)."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "user"], name="roundstat_round_user")
        ]
        indexes = [
            # The profile's recent rounds, newest first.
            models.Index(fields=["user", "-settled_at"], name="roundstat_user_time"),
            # Instant wins and scoops are rare: these stay small.
            models.Index(
                fields=["user", "instant_kind"],
                condition=~Q(instant_kind=""),
                name="roundstat_user_instant",
            ),
            models.Index(
                fields=["user", "scoop_kind"],
                condition=~Q(scoop_kind=""),
                name="roundstat_user_scoop",
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.round_id} user {self.user_id}: {self.net_xu:+d}"


class Period(models.TextChoices):
    DAY = "day", _("Today")
    WEEK = "week", _("This week")
    ALL = "all", _("All time")


class PeriodTotal(models.Model):
    """A player's sums over one period at one preset; a leaderboard is one index scan."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    preset = models.CharField(max_length=16)
    period = models.CharField(max_length=4, choices=Period.choices)
    start = models.DateField()
    """The local day, the Monday of the ISO week, or ALL_TIME."""
    rounds = models.PositiveIntegerField(default=0)
    net_xu = models.BigIntegerField(default=0)
    contests = models.PositiveIntegerField(default=0)
    chi1_won = models.PositiveIntegerField(default=0)
    chi2_won = models.PositiveIntegerField(default=0)
    chi3_won = models.PositiveIntegerField(default=0)
    fouls = models.PositiveIntegerField(default=0)
    biggest_win = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "period", "start", "preset"], name="periodtotal_key"
            )
        ]
        indexes = [
            models.Index(
                fields=["period", "preset", "start", "-net_xu", "user"], name="periodtotal_by_net"
            ),
            models.Index(
                fields=["period", "preset", "start", "-rounds", "user"],
                name="periodtotal_by_rounds",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.period} {self.start} {self.preset}"


class StakeCount(models.Model):
    """How many rounds a player played at each stake: the favourite stake is one index read."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    stake = models.PositiveIntegerField()
    rounds = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "stake"], name="stakecount_user_stake")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.stake}: {self.rounds}"


class StatsCursor(models.Model):
    """Where recording resumes: every round below ``next_round_id`` is finished and recorded.

    One row; the recording task locks it, so two runs never record the same round twice.
    """

    next_round_id = models.BigIntegerField(default=0)
    recorded_rounds = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"next round {self.next_round_id}"
