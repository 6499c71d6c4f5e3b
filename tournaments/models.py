"""Tournaments, their entries and their tables.

A tournament's state row carries a ``version`` that grows with every change its page can
see; every event to the tournament's group carries it (``tournaments.events``). Rows are
changed only by the services (``tournaments.services``, ``sitandgo.services``,
``arena.services``), under ``select_for_update`` in the documented lock order
(docs/tournaments.md): the tournament's tables (ids ascending), then the tournament, then
its entries, then the ledger's accounts.

Xu move only through the ledger's pool services (buy-in, refund, prizes). Chips are
tournament counters on the entries, moved only by the settlement of a tournament table's
round (``sitandgo.services.ChipStakes``); their sum per tournament never changes.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Table
from tournaments.rules import MAX_PLAYERS, MIN_PLAYERS


class Kind(models.TextChoices):
    SIT_AND_GO = "sit_and_go", _("Sit-and-go")
    ARENA = "arena", _("Arena")


class State(models.TextChoices):
    REGISTERING = "registering", _("registering")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")
    VOIDED = "voided", _("voided")
    """Ended by the server once it had started (``end_reason`` says why): every round in
    play voided, everyone stood up, every buy-in refunded (docs/tournaments.md)."""


class EndReason(models.TextChoices):
    """Why a tournament ended as it did, when that needs saying (the page says it)."""

    CREATOR = "creator", _("cancelled by its creator")
    TOO_FEW = "too_few", _("fewer than two players at the start")
    STALLED = "stalled", _("no progress for too long")
    NO_END = "no_end", _("running with no end time")
    STUCK_ROUNDS = "stuck_rounds", _("rounds stuck at its tables were voided")


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
    progressed_at = models.DateTimeField(default=timezone.now)
    """When it last moved on (``services.bump(progress=True)``); the watchdog ends one that
    made no progress for TOURNAMENT_STALL_MINUTES (``tournaments.watchdog``)."""
    end_reason = models.CharField(max_length=16, choices=EndReason.choices, blank=True)
    # --- An arena (kind ``arena``, docs/tournaments.md): a fixed time of duplicate boards.
    minutes = models.PositiveSmallIntegerField(_("minutes"), null=True, blank=True)
    """How long an arena runs once it starts."""
    starts_at = models.DateTimeField(null=True, blank=True)
    """When an arena starts by itself (its creator may start it earlier)."""
    ends_at = models.DateTimeField(null=True, blank=True)
    """When an arena stops pairing (the boards in play finish, then the ranking)."""
    schedule = models.ForeignKey(
        "games.DuplicateSchedule",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    """The arena's own committed boards; closed (every seed revealed) when it ends."""

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(players__gte=MIN_PLAYERS, players__lte=MAX_PLAYERS),
                name="tournament_players_4_to_16",
            ),
            models.CheckConstraint(condition=Q(level__gte=1), name="tournament_level_positive"),
        ]
        indexes = [
            models.Index(fields=["state", "created_at"], name="tournament_state_idx"),
            # The watchdog's look-up: tournaments in play that last moved on long ago.
            models.Index(
                fields=["progressed_at"],
                name="tournament_progress_idx",
                condition=Q(state__in=["registering", "running"]),
            ),
        ]

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
    REFUNDED = "refunded", _("refunded")
    """The tournament was cancelled or voided: the buy-in came back."""
    FINISHED = "finished", _("finished")
    """An arena's entrant once the arena is over and ranked (``place`` set for everyone)."""


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
    # --- An arena's entrant (tournaments.arena): points, streak, the queue.
    points = models.PositiveIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    """Good boards in a row (2 points each before doubling); 2 or more: on fire."""
    boards = models.PositiveSmallIntegerField(default=0)
    """Boards played to a settlement in the arena."""
    points_at = models.DateTimeField(null=True, blank=True)
    """When the points last grew (the ranking's tie-break: who got there first)."""
    paused = models.BooleanField(default=False)
    """Not paired again until they resume (a board in play finishes)."""
    waiting_since = models.DateTimeField(null=True, blank=True)
    """In the arena's queue since then (None: seated at a board, paused, or not started)."""

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


class ArenaResult(models.Model):
    """One entrant's points for one board of an arena, fixed when the round settled.

    Append-only: written by the settlement of the round (``tournaments.arena``), never
    changed. The board's duplicate comparison is the one available at that moment.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="arena_results"
    )
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="arena_results")
    round = models.ForeignKey("games.Round", on_delete=models.PROTECT, related_name="+")
    board = models.PositiveIntegerField()
    players = models.PositiveSmallIntegerField()
    """How many were dealt in at the table (results compare within the same number)."""
    units = models.IntegerField()
    """The entrant's net units at their table (games.rules settlement)."""
    others = models.PositiveSmallIntegerField()
    """How many others had held these cards (settled) when this round settled."""
    matchpoints = models.FloatField(null=True, blank=True)
    """The share of those others beaten (a tie counts half); None when there were none."""
    base = models.PositiveSmallIntegerField()
    """0, 1 or 2 (docs/tournaments.md, arena points)."""
    fire = models.BooleanField()
    """On fire when this board was played: its points count double."""
    points = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # Never the same board twice for one entrant (the pairing's promise, held here).
            models.UniqueConstraint(fields=["entry", "board"], name="arena_result_board_once"),
            models.UniqueConstraint(fields=["entry", "round"], name="arena_result_round_once"),
            models.CheckConstraint(condition=Q(base__lte=2), name="arena_result_base_0_to_2"),
        ]
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.entry} board {self.board}: {self.points}"


class ArenaSocket(models.Model):
    """One open arena socket of an entrant (their presence while they wait for a board).

    Renewed by the process holding the socket; a row not renewed for the presence timeout
    (its process died) no longer counts and the sweeper deletes it."""

    id = models.UUIDField(primary_key=True)
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="sockets")
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"socket {self.id} of {self.entry}"
