"""Sitting down, standing up (a leave during a round), client seeds."""

from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import SeatRefused
from accounts.models import User
from accounts.services import ensure_can_sit
from core.compiled import Compiled
from games import events
from games.errors import GameError, SeatError
from games.models import PlayerStatus, Round, RoundPlayer, RoundState, Seat, Table
from games.selectors.duplicate import board_audience
from games.selectors.engine import settle_round_result
from games.selectors.payloads import later_reveals, seat_view, tournament_seat, withheld_reveal
from games.selectors.private import may_enter, seat_room
from games.selectors.rounds import active_round, rounds_dealt_today
from games.selectors.tables import table_state
from games.services import common
from games.services.common import bump, lock_table, log, table_event
from games.services.countdown import schedule_auto_start
from games.services.showdown import begin_showdown
from games.signals import seat_changed, seat_wanted, send_on_commit, sit_requested
from games.stakes import for_table
from ledger import selectors as ledger_selectors
from ledger.formats import Xu

MAX_CLIENT_SEED = 64

# Every sit-down asks where the user sits already: compiled once (core.compiled).
_SEAT_OF = Compiled(
    lambda user_id: Seat.objects.filter(user_id=user_id).select_related("table")[:1]
)


@transaction.atomic
def sit(user: User, table_id: int, position: int | None = None) -> Seat:
    """Take a free seat (the first free one unless ``position`` is given)."""
    table = lock_table(table_id)
    existing = _SEAT_OF.first(user.pk)
    if existing is not None:
        if existing.table_id == table.pk:
            return existing  # a double click sits once
        raise SeatError(
            _("You are already seated at table “%(name)s”. Leave it first."),
            code="already_seated",
            name=existing.table.name,
        )
    if not table.is_open:
        raise SeatError(_("This table is closed."), code="table_closed")
    if table.is_managed:
        raise SeatError(
            _("Seats at a tournament table are assigned by the tournament."), code="assigned_seats"
        )
    if user.is_api_bot:
        ensure_bot_may_play(table, user)
    for _receiver, reason in sit_requested.send(sender=Table, user=user, table=table):
        if isinstance(reason, GameError):
            raise SeatError(reason.message, code=reason.code)
        if reason:
            raise SeatError(str(reason), code="engaged")
    if not may_enter(table, user):
        raise SeatError(
            _("This table is private: you need an invitation from its host."),
            code="private_table",
        )
    try:
        ensure_can_sit(user)
    except SeatRefused as exc:
        raise SeatError(exc.message, code=exc.code) from exc
    balance = ledger_selectors.balance(user)
    if balance < table.min_balance:
        raise SeatError(
            _("You need at least %(minimum)s xu to sit here; you have %(balance)s xu."),
            code="balance_too_low",
            minimum=Xu(table.min_balance),
            balance=Xu(balance),
        )
    room = seat_room(table.pk)
    taken = room.taken
    free = [p for p in range(table.seats) if p not in taken]
    if not free and not user.is_bot:
        free = make_room(table)
    if not free:
        raise SeatError(_("This table is full."), code="table_full")
    # Seats the host keeps for invited friends (SeatHold) are for them alone.
    held = room.held_for_others_than(user.pk)
    if held and len(free) <= held:
        raise SeatError(
            _("The free seats are held for the host's invited friends."), code="seat_held"
        )
    if position is None:
        position = free[0]
    elif position not in free:
        raise SeatError(_("That seat was just taken. Pick another."), code="seat_taken")
    try:
        # A savepoint: two tables' locks do not stop one user sitting at both at once;
        # the one-seat-per-user constraint does, and the loser gets a clear message.
        with transaction.atomic():
            seat = Seat.objects.create(
                table=table,
                user=user,
                position=position,
                client_seed=common.new_client_seed(),  # via the module: tests seed it
                last_seen_at=timezone.now(),
            )
    except IntegrityError:
        raise SeatError(
            _("You are already seated at another table."), code="already_seated"
        ) from None
    if user.pk in room.held_rows:
        table.holds.filter(user=user).delete()  # the friend came: their seat is theirs
    seats_changed(table)
    # What the steps below ask, read once: the round being played, the seats taken.
    current = active_round(table)
    live, seated = current is not None, len(taken) + 1
    table_event(
        table,
        {"type": "seat_taken", "seat": seat_view(seat, balance)},
        lobby=True,
        taken=seated,
        state=table_state(table, live=live),
    )
    if current is not None:  # watching now, dealt in next round
        log(current, "join", {"position": seat.position}, user)
    send_on_commit(seat_changed, table_id=table.pk)
    schedule_auto_start(table, live=live, seated=seated)
    return seat


def ensure_bot_may_play(table: Table, user: User) -> None:
    """A third-party bot account (docs/api.md#bot-accounts) sits only where the host lets
    bots in, and plays at most API_BOT_ROUNDS_PER_DAY rounds a day."""
    if not table.allow_bots:
        raise SeatError(
            _("Bots sit only at tables whose host lets bots in."), code="bots_not_allowed"
        )
    if rounds_dealt_today(user.pk) >= settings.API_BOT_ROUNDS_PER_DAY:
        raise SeatError(
            _("This bot has played its %(n)s rounds for today."),
            code="bot_round_cap",
            n=settings.API_BOT_ROUNDS_PER_DAY,
        )


def assign_seat(table: Table, user: User, position: int | None = None) -> Seat:
    """The owner of a managed table (a tournament) seats a player it chose: the first free
    seat unless ``position`` is given. The caller holds the table's lock (``lock_table``).

    No balance, privacy or presence checks: the owner answers for its players. A player
    seated during a round watches it and is dealt in at the next deal.
    """
    if not table.is_managed:
        raise SeatError(_("Only a tournament table has assigned seats."), code="not_assigned")
    taken = set(table.seat_set.values_list("position", flat=True))
    free = [p for p in range(table.seats) if p not in taken]
    if position is None and free:
        position = free[0]
    if position not in free:
        raise SeatError(_("This table is full."), code="table_full")
    seat = Seat.objects.create(
        table=table,
        user=user,
        position=position,
        client_seed=common.new_client_seed(),
        last_seen_at=timezone.now(),
    )
    balance = for_table(table).balances(table, [user.pk])[user.pk]
    seats_changed(table)
    table_event(table, {"type": "seat_taken", "seat": seat_view(seat, balance)})
    current = active_round(table)
    if current is not None:
        log(current, "join", {"position": seat.position}, user)
    send_on_commit(seat_changed, table_id=table.pk)
    schedule_auto_start(table)
    if not user.is_bot:
        events.to_user(user.pk, tournament_seat(table))  # the API's event stream
    return seat


def set_managed_stake(table: Table, stake: int) -> None:
    """The owner of a managed table changes its stake per chi (a tournament's level),
    from the next deal. The caller holds the table's lock."""
    if not table.is_managed:
        raise SeatError(_("Only a tournament table changes its stake."), code="not_assigned")
    table.stake = stake
    bump(table, "stake")
    table_event(table, {"type": "stake", "stake": stake})


def unassign_seat(table: Table, user: User, *, reason: str) -> bool:
    """The owner of a managed table stands a player up (moved, busted, the table broken).
    The caller holds the table's lock and does not do this to a player of a live round.
    False: they were not seated here."""
    seat = table.seat_set.filter(user=user).first()
    if seat is None:
        return False
    remove_seat(table, seat, reason=reason)
    return True


def make_room(table: Table) -> list[int]:
    """A person needs a seat a bot holds: a bot that is not playing the current round gives
    it up now; bots never leave mid-round, so otherwise one gives it up when the round ends
    (the bots app listens to ``seat_wanted``) and the person is asked to try again."""
    bot_seats = table.seat_set.filter(user__is_bot=True)
    round_ = active_round(table)
    if round_ is not None:
        bot_seats = bot_seats.exclude(user__in=round_.players.values("user"))
    seat = bot_seats.order_by("-position").first()
    if seat is not None:
        remove_seat(table, seat, reason="made_room")
        return [seat.position]
    if round_ is not None and table.seat_set.filter(user__is_bot=True).exists():
        # Sent now, not on commit: the refusal below rolls this transaction back.
        seat_wanted.send(sender=None, table_id=table.pk)
        raise SeatError(
            _("Bots are playing this round; one will give you its seat when the round ends."),
            code="table_full_bots",
        )
    return []


@transaction.atomic
def stand(user: User) -> None:
    """Leave the seat. During a round this is a leave (docs/rules.md#timing)."""
    seat = Seat.objects.filter(user=user).first()
    if seat is None:
        return  # already standing: a repeated click changes nothing
    table = lock_table(seat.table_id)
    seat = Seat.objects.filter(pk=seat.pk).first()
    if seat is None:
        return
    if table.is_managed:
        # A tournament player stays: away, their hands are played for them
        # (docs/rules.md#timing) until the tournament itself stands them up (busted, moved, over).
        raise SeatError(
            _(
                "You cannot leave a tournament table; while you are away your hands are"
                " played for you."
            ),
            code="assigned_seats",
        )
    round_ = active_round(table, lock=True)
    if round_ is not None:
        player = round_.players.filter(user=user, status=PlayerStatus.PLAYING).first()
        if player is not None:
            leave_round(table, round_, player)
    remove_seat(table, seat, reason="left")
    if round_ is None:
        schedule_auto_start(table)
    # Standing up at a private table that no longer lets them in (a revoked link, a seat
    # that was held, a block): they stop watching it, too.
    common.shut_out_barred(table, [user.pk], "left")


def seats_changed(table: Table) -> None:
    """Count a seat taken or left (``bump``), and drop the people the table row keeps for
    the countdown's readies (``Table.between["people"]``, games.services.between): they
    are read from the seats again."""
    kept = table.between
    if kept is not None and "people" in kept:
        table.between = {key: value for key, value in kept.items() if key != "people"}
        bump(table, "between")
    else:
        bump(table)


def remove_seat(table: Table, seat: Seat, *, reason: str) -> None:
    position, user_id = seat.position, seat.user_id
    seat.delete()
    seats_changed(table)
    table_event(
        table,
        {"type": "seat_left", "position": position, "user": user_id, "reason": reason},
        lobby=True,
    )
    send_on_commit(seat_changed, table_id=table.pk)


@transaction.atomic
def set_client_seed(user: User, table_id: int, seed: str) -> Seat:
    """Choose the client seed mixed into the next deal (provably fair)."""
    if not isinstance(seed, str) or not 1 <= len(seed) <= MAX_CLIENT_SEED or not seed.isprintable():
        raise SeatError(_("A client seed is 1 to 64 printable characters."), code="bad_client_seed")
    lock_table(table_id)
    seat = Seat.objects.filter(user=user, table_id=table_id).first()
    if seat is None:
        raise SeatError(_("You are not seated at this table."), code="not_seated")
    seat.client_seed = seed
    seat.save(update_fields=["client_seed"])
    return seat


def leave_round(table: Table, round_: Round, player: RoundPlayer) -> None:
    """docs/rules.md#timing: before the showdown all 3 chi are forfeited; during it, the
    chi not yet revealed. After the last reveal there is nothing left to forfeit.

    During the showdown the chi still to come were sent ahead with their results
    (showdown.reveal); this leave changes those, so they are sent again, replacing them."""
    showdown = round_.state == RoundState.SHOWDOWN
    shown = round_.chi_shown()
    if showdown and shown >= 3:
        return
    player.status = PlayerStatus.LEFT
    player.left_after_chi = shown if showdown else 0
    player.save(update_fields=["status", "left_after_chi"])
    log(
        round_,
        "leave",
        {"position": player.position, "after_chi": player.left_after_chi},
        player.user,
    )
    bump(table)
    later, audience = [], None
    if showdown:
        later = later_reveals(round_, settle_round_result(round_), shown)
        audience = board_audience(round_)
    table_event(
        table,
        {
            "type": "player_left",
            "round": round_.pk,
            "position": player.position,
            "after_chi": player.left_after_chi,
        },
        audience=audience,
        later=later,
        later_withheld=withheld_reveal,
    )
    if (
        round_.state == RoundState.ARRANGING
        and not round_.players.filter(
            status=PlayerStatus.PLAYING, submitted_at__isnull=True
        ).exists()
    ):
        begin_showdown(table, round_)  # nobody is still arranging: the showdown begins now
