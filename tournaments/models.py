"""Tournaments, their entries and their tables.

A tournament's state row carries a ``version`` that grows with every change its page can
see; every event to the tournament's group carries it (``tournaments.events``). Rows are
changed only by ``tournaments.services``, under ``select_for_update`` in the documented
lock order (docs/tournaments.md): the tournament's tables (ids ascending), then the
tournament, then its entries, then the ledger's accounts.

Xu move only through the ledger's pool services (buy-in, refund, prizes). Chips are
tournament counters on the entries, moved only by the settlement of a tournament table's
round (``services.ChipStakes``); their sum per tournament never changes.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Table
from tournaments.structure import MAX_PLAYERS, MIN_PLAYERS


class Kind(models.TextChoices):
    SIT_AND_GO = "sit_and_go", _("Sit-and-go")


class State(models.TextChoices):
    REGISTERING = "registering", _("registering")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")


class Tournament(models.Model):
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=60)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_created"
    )
    state = models.CharField(max_length=16, choices=State.choices, default=State.REGISTERING)
    players = models.PositiveSmallIntegerField(
        _("players"),
        validators=[MinValueValidator(MIN_PLAYERS), MaxValueValidator(MAX_PLAYERS)],
    )
    """How many entrants it starts with (a sit-and-go starts when this many registered)."""
    buy_in = models.PositiveIntegerField(
        _("buy-in (xu)"), validators=[MaxValueValidator(1_000_000)]
    )
    allow_bots = models.BooleanField(_("bots may fill the free places"), default=False)
    preset = models.CharField(_("rules preset"), max_length=16)
    rules_overrides = models.JSONField(default=dict, blank=True)
    starting_stack = models.PositiveIntegerField(_("starting chips"))
    levels = models.JSONField(default=list)
    """The published stake per chi of each level, in chips, level 1 first."""
    rounds_per_level = models.PositiveSmallIntegerField(_("rounds per level"))
    level = models.PositiveSmallIntegerField(default=1)
    rounds_played = models.PositiveIntegerField(default=0)
    """Rounds settled at the tournament's tables (all tables count); the level follows it."""
    bots_at = models.DateTimeField(null=True, blank=True)
    """When bots take the places still free (if allowed); the timer carries it."""
    version = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(players__gte=MIN_PLAYERS, players__lte=MAX_PLAYERS),
                name="tournament_players_4_to_16",
            ),
            models.CheckConstraint(condition=Q(level__gte=1), name="tournament_level_positive"),
        ]
        indexes = [models.Index(fields=["state", "created_at"], name="tournament_state_idx")]

    def __str__(self) -> str:
        return self.name

    @property
    def stake(self) -> int:
        """The current level's stake per chi, in chips."""
        return int(self.levels[min(self.level, len(self.levels)) - 1])

    @property
    def chips_in_play(self) -> int:
        return self.players * self.starting_stack


class EntryState(models.TextChoices):
    REGISTERED = "registered", _("registered")
    WITHDRAWN = "withdrawn", _("withdrawn (refunded)")
    PLAYING = "playing", _("playing")
    BUSTED = "busted", _("busted")
    WON = "won", _("won")
    REFUNDED = "refunded", _("refunded (cancelled)")


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    state = models.CharField(max_length=16, choices=EntryState.choices)
    registrations = models.PositiveSmallIntegerField(default=1)
    """How many times this user registered here (withdrawing and coming back): numbers
    their buy-in and its refund in the ledger."""
    stack = models.BigIntegerField(default=0)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    busted_at = models.DateTimeField(null=True, blank=True)
    bust_round = models.BigIntegerField(null=True, blank=True)
    """The round (games) in which the chips ran out."""
    prize = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_once"),
            models.UniqueConstraint(
                fields=["tournament", "place"],
                condition=Q(place__isnull=False),
                name="entry_place_once",
            ),
            models.CheckConstraint(condition=Q(stack__gte=0), name="entry_stack_not_negative"),
            models.CheckConstraint(condition=Q(prize__gte=0), name="entry_prize_not_negative"),
        ]
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class TournamentTable(models.Model):
    """One of a tournament's tables (games.Table with ``stakes_in`` chips)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tables")
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="tournament_table")
    number = models.PositiveSmallIntegerField()
    broken_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_table_number")
        ]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.tournament} table {self.number}"


class HouseBot(models.Model):
    """A bot account the tournaments seat as entrants when the creator allows it.

    Kept apart from the bots app's pool (which seats its bots at ordinary tables): a
    registered entrant must still be free to sit when the tournament starts. Bots play
    their hands through the bots app like anywhere (it plays every bot dealt in).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="house_bot"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"house bot {self.user_id}"
