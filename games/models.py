"""Tables, seats, rounds and the round event log.

Every state row carries a ``version`` that grows by one with each change a client can see;
every event carries the version it produced, so a client that sees a gap asks for a
snapshot. Rows are changed only by ``games.services``, under ``select_for_update``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.rules import Rules


class Preset(models.TextChoices):
    PORTAL = "portal", _("Portal (default)")
    CLASSIC = "classic", _("Classic")


class DuplicateSchedule(models.Model):
    """Boards 1..N whose deals every duplicate table bound here plays (docs/duplicate.md).

    Each board's seed is drawn and its SHA-256 published when the board is created, before
    any table can play it; the seed is revealed once the board's play is over.
    """

    OPEN = ""
    """The owner of a schedule any duplicate table may deal (staff's, opened in the lobby)."""

    name = models.CharField(_("name"), max_length=60)
    preset = models.CharField(_("rules preset"), max_length=16, choices=Preset.choices)
    rules_overrides = models.JSONField(_("house rules"), default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # No table deals from a closed schedule; its boards are revealed as their rounds end.
    closed_at = models.DateTimeField(null=True, blank=True)
    # The competition the schedule belongs to (``tournament:<id>`` for an arena's), or OPEN.
    # An owned schedule is dealt only at the tables its owner opens, so nobody else sees its
    # boards first or adds a result to its comparison (games.services.duplicate.ensure_may_deal).
    owner = models.CharField(_("owner"), max_length=40, blank=True, default=OPEN)

    class Meta:
        verbose_name = _("duplicate schedule")
        verbose_name_plural = _("duplicate schedules")

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> Rules:
        return Rules.preset(self.preset).with_overrides(self.rules_overrides)


class DuplicateBoard(models.Model):
    """One deal of a schedule: the committed seed every table playing it deals from."""

    schedule = models.ForeignKey(DuplicateSchedule, on_delete=models.PROTECT, related_name="boards")
    number = models.PositiveIntegerField()
    seed = models.CharField(max_length=64)
    """Secret until ``revealed_at``: whoever has it knows every hand of the board."""
    seed_hash = models.CharField(max_length=64)
    client_seed = models.CharField(max_length=64)
    """Public and fixed by the board (``duplicate:<schedule>:<board>``): players cannot
    choose it, or the same board would deal different cards at different tables."""
    created_at = models.DateTimeField(auto_now_add=True)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["schedule", "number"], name="duplicate_board_number_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="duplicate_board_number_positive"
            ),
        ]
        ordering = ["schedule", "number"]

    def __str__(self) -> str:
        return f"{self.schedule} board {self.number}"

    @property
    def is_revealed(self) -> bool:
        return self.revealed_at is not None


class BoardSeen(models.Model):
    """Someone shown a board's cards before its reveal without being dealt it: staff who
    opened a round of it (the moderation replay). From then on they count as having been
    dealt the board: no table deals it to them, and its cards are no secret for them."""

    board = models.ForeignKey(DuplicateBoard, on_delete=models.PROTECT, related_name="seen_by")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    round = models.ForeignKey(
        "Round", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    """The round whose cards they were shown."""
    why = models.CharField(max_length=32)
    """What showed it (``moderation_replay``)."""
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "user"], name="board_seen_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.board} seen by {self.user_id}"


class StakesIn(models.TextChoices):
    """What a table's rounds are played for (games.stakes)."""

    XU = "xu", _("xu")
    CHIPS = "chips", _("tournament chips")
    POINTS = "points", _("points")


class Table(models.Model):
    name = models.CharField(_("name"), max_length=60)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_tables"
    )
    preset = models.CharField(_("rules preset"), max_length=16, choices=Preset.choices)
    rules_overrides = models.JSONField(_("house rules"), default=dict, blank=True)
    stake = models.PositiveIntegerField(
        _("stake per chi (xu)"), validators=[MinValueValidator(1), MaxValueValidator(1_000_000)]
    )
    seats = models.PositiveSmallIntegerField(
        _("seats"), default=4, validators=[MinValueValidator(2), MaxValueValidator(4)]
    )
    min_balance = models.PositiveIntegerField(_("minimum balance to sit (xu)"))
    allow_bots = models.BooleanField(_("allow bots"), default=False)
    # How long a person waits alone at an allow_bots table before bots sit down.
    bot_wait_seconds = models.PositiveSmallIntegerField(
        _("seconds before bots join"),
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
    )
    is_open = models.BooleanField(default=True)
    # Anything but xu: the table belongs to the app that created it (a tournament), which
    # provides the stakes and assigns the seats (games.stakes).
    stakes_in = models.CharField(
        _("played for"), max_length=8, choices=StakesIn.choices, default=StakesIn.XU
    )
    # Not listed in the lobby nor offered by quick play; reached through an invite link
    # (TableInvite) by those the host lets in (docs/social.md).
    is_private = models.BooleanField(_("private table"), default=False)
    # Since when nobody sits here, as the periodic sweep saw it (close_empty_tables).
    empty_since = models.DateTimeField(null=True, blank=True)
    # A duplicate table deals the boards of this schedule instead of fresh seeds.
    duplicate_schedule = models.ForeignKey(
        DuplicateSchedule,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tables",
        verbose_name=_("duplicate schedule"),
    )
    # The board the next deal plays (games.services.duplicate.assign_board); cleared by
    # the deal. None: the lowest board nobody playing has been dealt yet.
    next_board = models.PositiveIntegerField(null=True, blank=True)
    # When the automatic start fires (9 s after the 2nd player sits, reset on each join).
    start_at = models.DateTimeField(null=True, blank=True)
    # Who said ready and who asked to wait in the countdown after round ``between["round"]``
    # ({"round", "ready", "waited"}: games.services.between), written with each of those
    # round log entries in the same statement, so the countdown's readers (every ``ready``,
    # every snapshot) need not read the log. The log stays the record: for another round
    # than the latest (or none), games.selectors.rounds.between_view reads it. With
    # "people": the people seated (not bots), written at the round's end and dropped at
    # every change of a seat (games.services.seats.seats_changed), so a ``ready`` need
    # not read the seats either.
    between = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seats__gte=2, seats__lte=4), name="table_seats_2_to_4"
            ),
            models.CheckConstraint(condition=models.Q(stake__gte=1), name="table_stake_positive"),
        ]
        indexes = [
            # The tables about to deal: the sweeper's due countdowns and the deal pacing's
            # turns (games.services.countdown.paced) read only these, never every table.
            models.Index(
                fields=["start_at"],
                condition=models.Q(start_at__isnull=False),
                name="table_start_at_pending",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> Rules:
        return Rules.preset(self.preset).with_overrides(self.rules_overrides)

    @property
    def is_managed(self) -> bool:
        """Owned by another app: not listed, seats assigned by it (games.stakes)."""
        return self.stakes_in != StakesIn.XU


class TableInvite(models.Model):
    """A link the host shares: who opens it while it is valid may come to the table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"invite to {self.table_id}"


class TableGuest(models.Model):
    """Someone let in to a private table: by an invite link, or turned away by the host."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="guests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The link that let them in: revoked or expired, it lets them in no more.
    invite = models.ForeignKey(
        TableInvite, on_delete=models.CASCADE, null=True, blank=True, related_name="guests"
    )
    # Set when the host removed them: no link brings them back to this table.
    removed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="table_guest_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id}"


class SeatHold(models.Model):
    """A free seat the host keeps for an invited friend until ``until``."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="holds")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    held_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    until = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="seat_hold_unique")]

    def __str__(self) -> str:
        return f"seat at {self.table_id} held for {self.user_id}"


class Seat(models.Model):
    """A user sitting at a table. One seat per user across all tables."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat"
    )
    position = models.PositiveSmallIntegerField()
    client_seed = models.CharField(max_length=64)
    # When a connection of this user to this table was last heard, as of its close or the
    # sit (open connections are ``Connection`` rows, renewed while open).
    last_seen_at = models.DateTimeField()
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.CheckConstraint(condition=models.Q(position__lte=3), name="seat_position_0_3"),
        ]
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position + 1}"


class Connection(models.Model):
    """One open table websocket, alive while its server process renews ``seen_at``.

    Presence is derived from these rows rather than counted: a socket whose process died
    (kill -9, a crash) stops renewing its row and expires on its own, so nothing can leak.
    """

    id = models.UUIDField(primary_key=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    opened_at = models.DateTimeField()
    seen_at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["table", "user"], name="connection_table_user")]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id} ({self.pk})"


class RoundState(models.TextChoices):
    ARRANGING = "arranging", _("arranging")
    SHOWDOWN = "showdown", _("showdown")
    SETTLED = "settled", _("settled")
    CANCELLED = "cancelled", _("cancelled")


class Round(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    state = models.CharField(max_length=16, choices=RoundState.choices)
    # Grows at every phase change (deal, showdown, settlement); a timer task carries the
    # phase it was scheduled for and does nothing once the round has moved past it.
    phase = models.PositiveIntegerField(default=0)
    # How many chi the showdown showed as it began (0: the instant wins first, else 1), and 3
    # once settled; the rest show on the clock (``chi_shown``), with no write of their own.
    revealed = models.PositiveSmallIntegerField(default=0)
    showdown_at = models.DateTimeField(null=True, blank=True)
    """When the showdown began: each later chi shows ``reveal_seconds`` after the one before
    (docs/protocol.md, "Reveals"); None before it, and for a showdown from before the clock."""
    # The table version of the deal: a submission from a client that has not seen it is stale.
    dealt_version = models.PositiveBigIntegerField(default=0)
    rules_json = models.JSONField()
    stake = models.PositiveIntegerField()
    server_seed = models.CharField(max_length=64)
    """Empty for a duplicate round: its seed is the board's (``revealed_server_seed``)."""
    server_seed_hash = models.CharField(max_length=64)
    client_seeds = models.JSONField(default=list)
    board = models.ForeignKey(
        DuplicateBoard, on_delete=models.PROTECT, null=True, blank=True, related_name="rounds"
    )
    """The duplicate board this round dealt, or None for an ordinary deal."""
    deadline = models.DateTimeField(null=True, blank=True)
    """When the current phase ends: the arranging deadline, then the settlement's time."""
    settlement = models.JSONField(null=True, blank=True)
    ratings = models.JSONField(null=True, blank=True)
    """The rating change of each player, as the ratings app wrote it at settlement
    (``{"rated": bool, "reason": str, "players": {user id: {"before", "after"}}}``, see
    docs/ratings.md); None: not rated (no rating app, or settled before it existed)."""
    dealt_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="round_number_unique")
        ]
        indexes = [
            models.Index(fields=["state", "deadline"], name="round_due_idx"),
            # The deal pacing counts the rounds dealt in the current turn (a late timer).
            models.Index(fields=["dealt_at"], name="round_dealt_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.number}"

    @cached_property
    def rules(self) -> Rules:
        """The rules snapshot of the deal (never changes after it)."""
        return Rules.from_dict(self.rules_json)

    @property
    def is_finished(self) -> bool:
        return self.state in {RoundState.SETTLED, RoundState.CANCELLED}

    def chi_shown(self, now: datetime | None = None) -> int:
        """How many chi are shown at ``now``: during the showdown, the first step's plus one
        for each ``reveal_seconds`` since it began, at most 3; otherwise ``revealed``."""
        if self.state != RoundState.SHOWDOWN or self.showdown_at is None:
            return self.revealed
        elapsed = ((now or timezone.now()) - self.showdown_at).total_seconds()
        return max(self.revealed, min(3, self.revealed + int(elapsed // self.rules.reveal_seconds)))

    def step_deadline(self, revealed: int) -> datetime | None:
        """When the phase that shows ``revealed`` chi ends: in a showdown, the next chi's
        time (or the settlement's); otherwise ``deadline``."""
        if self.state == RoundState.SHOWDOWN and self.showdown_at is not None:
            return self.reveal_time(revealed + 1)
        return self.deadline

    def reveal_time(self, revealed: int) -> datetime:
        """When the showdown shows chi ``revealed`` (4: when it is settled)."""
        assert self.showdown_at is not None
        steps = revealed - self.revealed
        return self.showdown_at + timedelta(seconds=steps * self.rules.reveal_seconds)

    @property
    def revealed_server_seed(self) -> str:
        """The seed anyone may see now: a round's once it is over, a board's once revealed."""
        if self.board_id is not None:
            board = self.board
            return board.seed if board is not None and board.is_revealed else ""
        return self.server_seed if self.is_finished else ""


class PlayerStatus(models.TextChoices):
    PLAYING = "playing", _("playing")
    LEFT = "left", _("left")


class AutoArranged(models.TextChoices):
    """Who arranged a hand played for its owner at the deadline (docs/rules.md#timing)."""

    DRAFT = "draft", _("their last draft")
    ENGINE = "engine", _("the auto-arranger")


class RoundPlayer(models.Model):
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="round_players"
    )
    position = models.PositiveSmallIntegerField()
    cards = models.JSONField()
    """The 13 dealt cards, as "AS"-style strings, in deal order."""
    arrangement = models.JSONField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    draft = models.JSONField(null=True, blank=True)
    """The last complete layout the player's page sent (a draft or a submission), foul or not."""
    auto_arranged = models.CharField(
        max_length=8, choices=AutoArranged.choices, blank=True, default=""
    )
    """Set when the hand was not submitted in time and the table played it for its owner."""
    status = models.CharField(max_length=8, choices=PlayerStatus.choices, default="playing")
    left_after_chi = models.PositiveSmallIntegerField(null=True, blank=True)
    hold = models.PositiveBigIntegerField()
    cap = models.PositiveBigIntegerField()
    units = models.BigIntegerField(null=True, blank=True)
    xu = models.BigIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "user"], name="round_player_unique"),
            models.UniqueConstraint(fields=["round", "position"], name="round_position_unique"),
        ]
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.round} seat {self.position + 1}"


class RoundEvent(models.Model):
    """The append-only log of a round: the hand history and the moderators' replay."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    data: Any = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "seq"], name="round_event_seq")]
        ordering = ["round", "seq"]

    def __str__(self) -> str:
        return f"{self.round} #{self.seq} {self.kind}"
