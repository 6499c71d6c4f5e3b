"""Every change to a sit-and-go goes through here (docs/tournaments.md, Sit-and-go).

A sit-and-go starts when its last place is taken (or bots take the free places): everyone
gets the starting stack and a drawn seat (``rules.initial_seating``). Chips move only in
the settlement of one of its tables' rounds (``ChipStakes.settle``: whoever cannot pay a
chi is out); after each, the table step stands up who is out, balances and breaks the
tables and brings them to the level in force; when one player has every chip the pool pays
the prize table (``tournaments.services.pay_or_hold``).

What both kinds share (the lock, the version, the timers, the entry checks, withdrawing,
the one cancel path, the prizes) is ``tournaments.services``, in the lock order it states.
Timers carry the state they expect and do nothing when it moved on; ``sweep_sitandgos``
(from the sweeper, ``tournaments.sweeper``) runs what a lost timer left due.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import services as games
from games.errors import NotFound
from games.models import Preset, Round, RoundPlayer, Seat, StakesIn, Table
from games.selectors import active_round
from ledger import selectors as ledger_selectors
from ledger import services as ledger
from ledger.errors import InsufficientFunds
from ledger.formats import Xu
from tournaments.errors import TournamentError
from tournaments.models import (
    Entry,
    EntryState,
    HouseBot,
    Kind,
    State,
    Tournament,
    TournamentTable,
)
from tournaments.rules import prizes
from tournaments.services import (
    ACTIVE_ENTRY,
    bump,
    cancel_locked,
    checked_terms,
    ensure_free_to_enter,
    lock,
    pay_or_hold,
    schedule,
)
from tournaments.sitandgo import rules, selectors

logger = logging.getLogger(__name__)

HOUSE_BOT_NAMES = ("Bot Sen", "Bot Cúc", "Bot Đào", "Bot Mận", "Bot Lựu", "Bot Quế", "Bot Trúc")
HOUSE_BOT_BANKROLL = 100_000


# --- Creating, registering, cancelling ------------------------------------------------


@transaction.atomic
def create_sit_and_go(
    user: User,
    *,
    name: str,
    players: int,
    buy_in: int,
    allow_bots: bool = False,
    preset: str = Preset.PORTAL,
) -> Tournament:
    """Open a sit-and-go and register its creator (who pays the buy-in at once)."""
    name, overrides = checked_terms(
        name=name,
        players=players,
        players_message=_("A sit-and-go has %(low)s to %(high)s players."),
        buy_in=buy_in,
        preset=preset,
        start_seconds=5,
    )
    tournament = Tournament.objects.create(
        kind=Kind.SIT_AND_GO,
        name=name,
        created_by=user,
        players=players,
        buy_in=buy_in,
        allow_bots=bool(allow_bots),
        preset=preset,
        rules_overrides=overrides,
        starting_stack=settings.TOURNAMENT_STARTING_STACK,
        levels=rules.level_stakes(settings.TOURNAMENT_FIRST_STAKE),
        rounds_per_level=settings.TOURNAMENT_LEVEL_ROUNDS,
    )
    register(user, tournament.pk)
    tournament.refresh_from_db()
    return tournament


@transaction.atomic
def register(user: User, tournament_id: Any) -> Entry:
    """Take a place and pay the buy-in into the pool; the last place starts the tournament."""
    tournament = lock(tournament_id, Kind.SIT_AND_GO)
    if tournament.state != State.REGISTERING:
        raise TournamentError(_("Registration for this tournament is closed."), code="closed")
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if entry is not None and entry.state == EntryState.REGISTERED:
        return entry  # a double click registers once
    if _registered(tournament) >= tournament.players:
        raise TournamentError(_("This tournament is full."), code="full")
    ensure_free_to_enter(user, tournament)
    if entry is None:
        entry = Entry(tournament=tournament, user=user, registrations=0)
    entry.registrations += 1
    entry.state = EntryState.REGISTERED
    entry.save()
    if tournament.buy_in:
        try:
            ledger.buy_in(tournament.pk, user, tournament.buy_in, entry=entry.registrations)
        except InsufficientFunds:
            raise TournamentError(
                _("The buy-in is %(buy_in)s xu; you have %(balance)s xu."),
                code="balance_too_low",
                buy_in=Xu(tournament.buy_in),
                balance=Xu(ledger_selectors.balance(user)),
            ) from None
    if _registered(tournament) >= tournament.players:
        _start(tournament)
        return entry
    if tournament.allow_bots:
        tournament.bots_at = timezone.now() + timedelta(
            seconds=settings.TOURNAMENT_BOT_WAIT_SECONDS
        )
        _enqueue_bots(tournament)
    bump(tournament, "bots_at", progress=True)
    return entry


def _registered(tournament: Tournament) -> int:
    return tournament.entries.filter(state=EntryState.REGISTERED).count()


@transaction.atomic
def cancel(user: User | None, tournament_id: Any) -> Tournament:
    """The sit-and-go's creator cancels it before the start (``None``: the system): every
    buy-in is refunded and the pool closed."""
    return cancel_locked(lock(tournament_id, Kind.SIT_AND_GO), user)


# --- Bots -----------------------------------------------------------------------------


@transaction.atomic
def fill_with_bots(tournament_id: int, expected_bots_at: str | None = None) -> Tournament | None:
    """The bots' timer: bots take every free place and the tournament starts. Stale (a
    registration since moved the time, or it started) does nothing."""
    try:
        tournament = lock(tournament_id, Kind.SIT_AND_GO)
    except TournamentError:
        return None
    if tournament.state != State.REGISTERING or not tournament.allow_bots:
        return None
    if tournament.bots_at is None:
        return None
    if expected_bots_at is not None and tournament.bots_at.isoformat() != expected_bots_at:
        return None
    if timezone.now() < tournament.bots_at:
        _enqueue_bots(tournament)
        return None
    _seat_bots(tournament)
    return tournament


@transaction.atomic
def start_now_with_bots(user: User, tournament_id: Any) -> Tournament:
    """The creator's button: bots take the free places now and the tournament starts."""
    tournament = lock(tournament_id, Kind.SIT_AND_GO)
    if user.pk != tournament.created_by_id:
        raise TournamentError(_("Only its creator can start a tournament."), code="not_creator")
    if tournament.state != State.REGISTERING:
        raise TournamentError(_("Registration for this tournament is closed."), code="closed")
    if not tournament.allow_bots:
        raise TournamentError(_("This tournament does not allow bots."), code="no_bots")
    _seat_bots(tournament)
    return tournament


def _seat_bots(tournament: Tournament) -> None:
    free = tournament.players - _registered(tournament)
    for bot in _free_house_bots(free):
        if tournament.buy_in:
            _fund_bot(bot, tournament.buy_in)
        entry = Entry.objects.filter(tournament=tournament, user=bot).first() or Entry(
            tournament=tournament, user=bot, registrations=0
        )
        entry.registrations += 1
        entry.state = EntryState.REGISTERED
        entry.save()
        if tournament.buy_in:
            ledger.buy_in(tournament.pk, bot, tournament.buy_in, entry=entry.registrations)
    _start(tournament)


def _free_house_bots(count: int) -> list[User]:
    """``count`` house bots not in a tournament now (locked: no other fill takes them)."""
    if count <= 0:
        return []
    busy = Entry.objects.filter(state__in=ACTIVE_ENTRY).values("user_id")
    found = list(
        User.objects.select_for_update(skip_locked=True)
        .filter(house_bot__isnull=False)
        .exclude(pk__in=busy)
        .order_by("pk")[:count]
    )
    while len(found) < count:
        number = HouseBot.objects.count()
        user = User(
            username=f"house-bot-{secrets.token_hex(5)}",
            display_name=HOUSE_BOT_NAMES[number % len(HOUSE_BOT_NAMES)],
            is_bot=True,
        )
        user.set_unusable_password()
        user.save()
        HouseBot.objects.create(user=user)
        ledger.flag_bot(user)
        found.append(user)
    return found


def _fund_bot(bot: User, needed: int) -> None:
    balance = ledger_selectors.balance(bot)
    if balance >= needed:
        return
    amount = max(HOUSE_BOT_BANKROLL, 2 * needed) - balance
    ledger.top_up_bot(bot, amount, key=f"bot_topup:house:{bot.pk}:{secrets.token_hex(8)}")


# --- Starting ---------------------------------------------------------------------------


def _start(tournament: Tournament) -> None:
    """Everyone registered gets the starting stack and a drawn seat at one of the tables."""
    entries = list(
        tournament.entries.select_for_update()
        .filter(state=EntryState.REGISTERED)
        .select_related("user")
    )
    by_user = {e.user_id: e for e in entries}
    seating = rules.initial_seating(sorted(by_user), random.Random(secrets.randbits(64)))
    now = timezone.now()
    for number, user_ids in enumerate(seating, start=1):
        table = games.create_table(
            tournament.created_by,
            name=str(
                _("%(name)s · table %(number)s") % {"name": tournament.name[:40], "number": number}
            ),
            preset=tournament.preset,
            stake=tournament.stake,
            seats=rules.TABLE_SEATS,
            rules_overrides=dict(tournament.rules_overrides),
            min_balance=1,
            stakes_in=StakesIn.CHIPS,
        )
        TournamentTable.objects.create(tournament=tournament, table=table, number=number)
        for user_id in user_ids:
            entry = by_user[user_id]
            entry.state = EntryState.PLAYING
            entry.stack = tournament.starting_stack
            entry.table = table
            entry.save(update_fields=["state", "stack", "table"])
        for user_id in user_ids:
            _leave_other_table(by_user[user_id].user)
            games.assign_seat(table, by_user[user_id].user)
    tournament.state = State.RUNNING
    tournament.started_at = now
    tournament.bots_at = None
    bump(tournament, "state", "started_at", "bots_at", progress=True)
    logger.info("tournament %s started with %d players", tournament.pk, len(entries))


def _leave_other_table(user: User) -> None:
    """An entrant seated at an ordinary table (they sat before the guard could refuse it)
    leaves it as a player who stands up (docs/rules.md#timing): the tournament seats them."""
    seat = Seat.objects.filter(user=user).select_related("table").first()
    if seat is not None and not seat.table.is_managed:
        games.stand(user)


# --- Chips: the stakes of a tournament table's rounds (games.stakes) -------------------


class ChipStakes:
    """A tournament table's rounds are played for chips: the entrants' stacks.

    Called by the games app inside the table's transaction (the table locked first, then
    here the tournament and its entries: the documented order)."""

    def balances(self, table: Table, user_ids: Sequence[int]) -> dict[int, int]:
        stacks = dict(
            Entry.objects.filter(
                tournament__tables__table=table, user_id__in=list(user_ids)
            ).values_list("user_id", "stack")
        )
        return {user_id: int(stacks.get(user_id, 0)) for user_id in user_ids}

    def hold(self, table: Table, round_: Round, holds: Sequence[tuple[User, int]]) -> None:
        # Nothing moves at the deal: a player plays one round at a time (one seat), and the
        # hold (their per-opponent cap) bounds what the settlement can take from the stack.
        return None

    def settle(
        self,
        table: Table,
        round_: Round,
        players: Sequence[RoundPlayer],
        deltas: Mapping[int, int],
    ) -> int:
        settle_chips(table, round_, deltas)
        return 0

    def void(self, table: Table, round_: Round) -> int | None:
        return None  # nothing was moved at the deal, so nothing goes back


def settle_chips(table: Table, round_: Round, deltas: Mapping[int, int]) -> Tournament:
    """Move a settled round's chips, bust whoever is out, raise the level, finish.

    Runs inside the round's settlement (the table is locked). A stack left smaller than
    the round's stake per chi cannot pay one chi: that player is out too, and their last
    chips go to the round's biggest winner at the table (docs/tournaments.md: the
    remainder rule), so a stack always ends at zero when its player busts.
    """
    link = TournamentTable.objects.select_related("tournament").get(table=table)
    tournament = lock(link.tournament_id, Kind.SIT_AND_GO)
    entries = {
        e.user_id: e
        for e in Entry.objects.select_for_update().filter(
            tournament=tournament, user_id__in=list(deltas)
        )
    }
    positions = dict(round_.players.values_list("user_id", "position"))
    result = rules.settle_stacks(
        {u: entries[u].stack for u in deltas}, deltas, round_.stake, positions
    )
    for user_id, stack in result.stacks.items():
        entries[user_id].stack = stack
    out = result.out
    remaining = tournament.entries.filter(state=EntryState.PLAYING).count()
    now = timezone.now()
    for offset, user_id in enumerate(out):
        entry = entries[user_id]
        entry.state = EntryState.BUSTED
        entry.place = remaining - len(out) + 1 + offset
        entry.busted_at = now
        entry.bust_round = round_.pk
    Entry.objects.bulk_update(
        list(entries.values()), ["stack", "state", "place", "busted_at", "bust_round"]
    )
    tournament.rounds_played += 1
    tournament.level = rules.level_for(
        tournament.rounds_played, tournament.rounds_per_level, len(tournament.levels)
    )
    if remaining - len(out) <= 1:
        _finish(tournament)
    bump(tournament, "rounds_played", "level", progress=True)
    # This table plays its next round at the level now in force; the others take it at
    # the table step that follows (which also balances the tables).
    table.stake = tournament.stake
    table.save(update_fields=["stake"])
    _enqueue_table_step(tournament)
    return tournament


def _finish(tournament: Tournament) -> None:
    """One player has every chip: they win, and the pool pays the prize table."""
    winner = tournament.entries.select_for_update().get(state=EntryState.PLAYING)
    winner.state = EntryState.WON
    winner.place = 1
    winner.save(update_fields=["state", "place"])
    pool = ledger_selectors.pool_balance(tournament.pk)
    amounts = prizes(tournament.players, pool)
    places = {
        e.place: e for e in tournament.entries.select_for_update().filter(place__lte=len(amounts))
    }
    paid: dict[int, int] = {}
    for place, amount in enumerate(amounts, start=1):
        entry = places[place]
        entry.prize = amount
        entry.save(update_fields=["prize"])
        paid[entry.user_id] = amount
    pay_or_hold(tournament, paid)
    tournament.state = State.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["state", "finished_at"])
    logger.info("tournament %s finished: prizes %s", tournament.pk, paid)


# --- The table step: balancing, levels, closing ----------------------------------------


@transaction.atomic
def table_step(tournament_id: int, *, skip_locked: bool = False) -> bool:
    """After a round settles at one of its tables: stand up who busted, balance the tables
    (break them as players go, down to the final table), bring every table to the current
    level, and close the tables of a finished tournament. Idempotent: it works from the
    state it finds, so a duplicate or late run finds nothing to do. False: nothing done.

    Players are moved only between rounds of the table they leave; one who must move from
    a table playing a round moves at a later step (each settlement schedules one).
    """
    links = list(
        TournamentTable.objects.filter(tournament_id=tournament_id, broken_at__isnull=True)
        .order_by("table_id")
        .values_list("table_id", flat=True)
    )
    try:
        tables = {
            table_id: games.lock_table(table_id, skip_locked=skip_locked) for table_id in links
        }
    except NotFound:
        return False  # the sweeper: a table busy elsewhere; the next sweep tries again
    try:
        tournament = lock(tournament_id, Kind.SIT_AND_GO)
    except TournamentError:
        return False  # gone, or an arena (whose tables are its pairing's)
    if tournament.state not in (State.RUNNING, State.FINISHED):
        return False
    entries = list(
        tournament.entries.select_for_update()
        .filter(table_id__in=list(tables))
        .select_related("user")
    )
    busy = {t for t, table in tables.items() if active_round(table) is not None}
    changed = False
    seated: dict[int, list[int]] = {t: [] for t in tables}
    seats = {
        s.user_id: s for s in Seat.objects.filter(table_id__in=list(tables)).order_by("position")
    }
    for entry in entries:
        seat = seats.get(entry.user_id)
        if entry.state == EntryState.PLAYING:
            if seat is not None and seat.table_id == entry.table_id:
                seated[entry.table_id].append(entry.user_id)
            continue
        # Busted, or the winner of a finished tournament: their seat goes between rounds.
        if entry.table_id is not None and entry.table_id not in busy:
            if seat is not None:
                games.unassign_seat(tables[entry.table_id], entry.user, reason=_reason(entry))
            entry.table = None
            entry.save(update_fields=["table"])
            changed = True
    if tournament.state == State.FINISHED:
        for table_id, table in tables.items():
            if table_id not in busy and not table.seat_set.exists():
                changed |= _break(tournament, table)
        if changed:
            bump(tournament, progress=True)
        return changed
    for seats_of in seated.values():
        seats_of.sort(key=lambda u: seats[u].position)
    moves, _left = rules.balancing_moves(seated, busy)
    by_user = {e.user_id: e for e in entries}
    for move in moves:
        entry = by_user[move.player]
        games.unassign_seat(tables[move.source], entry.user, reason="moved")
        games.assign_seat(tables[move.target], entry.user)
        entry.table_id = move.target
        entry.save(update_fields=["table"])
        changed = True
    for table_id, table in tables.items():
        if table_id in busy:
            continue
        if not table.seat_set.exists():
            changed |= _break(tournament, table)
        elif table.stake != tournament.stake:
            games.set_managed_stake(table, tournament.stake)
            changed = True
    if changed:
        bump(tournament, progress=True)
    return changed


def _reason(entry: Entry) -> str:
    return "won" if entry.state == EntryState.WON else "busted"


def _break(tournament: Tournament, table: Table) -> bool:
    """Close an emptied table of the tournament (its players were moved or went out)."""
    link = TournamentTable.objects.get(table=table)
    if link.broken_at is not None:
        return False
    link.broken_at = timezone.now()
    link.save(update_fields=["broken_at"])
    games.close_table(table.pk)
    return True


# --- The sweeper -------------------------------------------------------------------------


def sweep_sitandgos(grace: timedelta = timedelta(seconds=2)) -> int:
    """The sit-and-go's part of the sweeper (``tournaments.sweeper``): run what lost timers
    left due, bots to fill and table steps not run after a settlement.

    Each in its own transaction; a table step skips tables locked elsewhere (and is tried
    again at the next sweep), so one stuck table never stalls the sweep.
    """
    now = timezone.now()
    moved = 0
    due = Tournament.objects.filter(
        state=State.REGISTERING, allow_bots=True, bots_at__lte=now - grace
    ).values_list("pk", flat=True)
    for tournament_id in list(due):
        try:
            moved += fill_with_bots(tournament_id) is not None
        except Exception:
            logger.exception("sweeper could not fill tournament %s with bots", tournament_id)
    for tournament_id in selectors.tournaments_needing_a_step():
        try:
            moved += table_step(tournament_id, skip_locked=True)
        except Exception:
            logger.exception("sweeper could not run the table step of tournament %s", tournament_id)
    return moved


# --- Timers (``tournaments.sitandgo.tasks``) ----------------------------------------------


def _enqueue_bots(tournament: Tournament) -> None:
    """The bots' timer, carrying the time it expects (a later registration moves it)."""
    from tournaments.sitandgo.tasks import fill_with_bots_task as task  # the tasks import this

    assert tournament.bots_at is not None
    schedule(task, (tournament.pk, tournament.bots_at.isoformat()), tournament.bots_at)


def _enqueue_table_step(tournament: Tournament) -> None:
    """The table step after a settlement (idempotent: it works from the state it finds)."""
    from tournaments.sitandgo.tasks import table_step_task as task  # the tasks import this

    schedule(task, (tournament.pk,))
