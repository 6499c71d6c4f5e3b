"""Every change to tournaments goes through here.

Lock order (docs/tournaments.md), the same in every path so two never wait on each other:

1. the tournament's tables, ids ascending (``games.services.lock_table``: each table's
   command stream); a table's settlement already holds its own table;
2. the tournament row (``_lock``);
3. its entries;
4. the ledger's accounts (the pool first, then wallets: ``ledger.services``).

Xu move only through the ledger's pool services, inside the transaction that causes them:
the buy-in at registration, the refund when an entrant withdraws or the tournament is
cancelled before it starts (or voided by the watchdog), the prizes when one player has
every chip (or, when the collusion signals fire, the prizes held for a moderator). Chips
move only in the settlement of a tournament table's round (``ChipStakes.settle``). Timers carry the
state they expect and do nothing when it moved on; the sweeper catches what they missed.
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
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import TextRefused
from accounts.ids import parse_id
from accounts.models import User
from accounts.text import clean_text
from games import services as games
from games.errors import NotFound
from games.models import Preset, Round, RoundPlayer, RoundState, Seat, StakesIn, Table
from games.rules import Rules, RulesConfigError
from games.selectors import active_round
from games.services import duplicate as games_duplicate
from ledger import selectors as ledger_selectors
from ledger import services as ledger
from ledger.errors import InsufficientFunds
from ledger.formats import Xu
from tournaments import events, structure
from tournaments.errors import TournamentError
from tournaments.models import (
    EndReason,
    Entry,
    EntryState,
    HouseBot,
    Kind,
    State,
    Tournament,
    TournamentTable,
)

logger = logging.getLogger(__name__)

ACTIVE_ENTRY = (EntryState.REGISTERED, EntryState.PLAYING)
HOUSE_BOT_NAMES = ("Bot Sen", "Bot Cúc", "Bot Đào", "Bot Mận", "Bot Lựu", "Bot Quế", "Bot Trúc")
HOUSE_BOT_BANKROLL = 100_000


ANY_KIND = (Kind.SIT_AND_GO, Kind.ARENA)
"""What a service common to both kinds (withdrawing before the start) passes to ``_lock``."""

WRONG_KIND = {
    Kind.SIT_AND_GO: _("This tournament is an arena, not a sit-and-go: use the arena's page."),
    Kind.ARENA: _("This tournament is a sit-and-go, not an arena: use its own page."),
}


def _lock(tournament_id: Any, kind: str | tuple[str, ...]) -> Tournament:
    """Lock the tournament row (every change to a tournament and its entries waits here) and
    check it is of the kind the caller serves: a sit-and-go service given an arena (or the
    other way round), through any URL, timer or socket, is refused and nothing changes
    (``wrong_kind``). ``kind`` is one kind, or ``ANY_KIND`` for a service of both."""
    try:
        tournament = Tournament.objects.select_for_update().get(pk=parse_id(tournament_id) or 0)
    except (Tournament.DoesNotExist, ValueError, TypeError, OverflowError):
        raise TournamentError(_("This tournament does not exist."), code="not_found") from None
    kinds = (kind,) if isinstance(kind, str) else kind
    if tournament.kind not in kinds:
        raise TournamentError(WRONG_KIND[Kind(kinds[0])], code="wrong_kind")
    return tournament


def _bump(tournament: Tournament, *fields: str, progress: bool = False) -> None:
    """Count one visible change; the page hears the new state after the commit. With
    ``progress`` the change moved the tournament on (a registration, the start, a settled
    round, a table step that did something, a pairing, a board's points): the watchdog
    (``tournaments.watchdog``) ends a tournament that made none for TOURNAMENT_STALL_MINUTES."""
    tournament.version += 1
    if progress:
        tournament.progressed_at = timezone.now()
        fields = (*fields, "progressed_at")
    tournament.save(update_fields=["version", *fields])
    events.changed(tournament.pk)


def _schedule(task_name: str, args: tuple[Any, ...], eta: Any = None) -> None:
    from tournaments import arena_tasks, tasks

    task = getattr(tasks, task_name, None) or getattr(arena_tasks, task_name)
    # robust: a broker that is away must not fail the committed change (the sweeper runs
    # what was due).
    transaction.on_commit(lambda: task.apply_async(args, eta=eta), robust=True)


# --- Creating, registering, withdrawing, cancelling -----------------------------------


def checked_terms(
    *,
    name: str,
    players: Any,
    players_message: Any,
    buy_in: Any,
    preset: str,
    start_seconds: int,
) -> tuple[str, dict[str, Any]]:
    """What every kind of tournament checks of its creator's form: the name, the number of
    players (``players_message`` says it for the kind), the buy-in and the preset; and the
    rules its tables play by (the tournament timers, a hand not sent in time played for
    its owner: RULES.md section 8). Returns the name as kept and those rules' overrides."""
    try:
        name = clean_text(name)  # the text policy: nothing invisible, no bidi control
    except TextRefused as exc:
        raise exc.as_error(TournamentError) from exc
    if not name or len(name) > 60:
        raise TournamentError(
            _("A tournament needs a name of 1 to 60 characters."), code="bad_name"
        )
    if (
        not isinstance(players, int)
        or not structure.MIN_PLAYERS <= players <= structure.MAX_PLAYERS
    ):
        raise TournamentError(
            players_message,
            code="bad_players",
            low=structure.MIN_PLAYERS,
            high=structure.MAX_PLAYERS,
        )
    if not isinstance(buy_in, int) or not 0 <= buy_in <= 1_000_000:
        raise TournamentError(
            _("The buy-in must be between 0 and 1,000,000 xu."), code="bad_buy_in"
        )
    if preset not in Preset.values:
        raise TournamentError(_("Unknown rules preset."), code="bad_preset")
    overrides = {
        "arrange_seconds": settings.TOURNAMENT_ARRANGE_SECONDS,
        "reveal_seconds": settings.TOURNAMENT_REVEAL_SECONDS,
        "start_seconds": start_seconds,
        "on_timeout": "auto",  # RULES.md section 8: a hand not sent in time is played
    }
    try:
        Rules.preset(preset).with_overrides(overrides)
    except RulesConfigError as exc:  # a misconfigured deployment, not the player's input
        raise TournamentError(str(exc), code="bad_rules") from exc
    return name, overrides


def ensure_free_to_enter(user: User, tournament: Tournament) -> None:
    """One tournament at a time, and not from a seat at an ordinary table: what every kind
    of tournament checks before it takes someone in."""
    other = _engaged_elsewhere(user, tournament)
    if other is not None:
        raise TournamentError(
            _("You are already playing in the tournament “%(name)s”."),
            code="engaged",
            name=other.tournament.name,
        )
    seat = Seat.objects.filter(user=user).select_related("table").first()
    if seat is not None:
        raise TournamentError(
            _("You are seated at table “%(name)s”. Leave it before you register."),
            code="seated",
            name=seat.table.name,
        )


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
        levels=structure.level_stakes(settings.TOURNAMENT_FIRST_STAKE),
        rounds_per_level=settings.TOURNAMENT_LEVEL_ROUNDS,
    )
    register(user, tournament.pk)
    tournament.refresh_from_db()
    return tournament


def _engaged_elsewhere(user: User, tournament: Tournament) -> Entry | None:
    return (
        Entry.objects.filter(user=user, state__in=ACTIVE_ENTRY)
        .exclude(tournament=tournament)
        .select_related("tournament")
        .first()
    )


@transaction.atomic
def register(user: User, tournament_id: Any) -> Entry:
    """Take a place and pay the buy-in into the pool; the last place starts the tournament."""
    tournament = _lock(tournament_id, Kind.SIT_AND_GO)
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
        _schedule(
            "fill_with_bots", (tournament.pk, tournament.bots_at.isoformat()), tournament.bots_at
        )
    _bump(tournament, "bots_at", progress=True)
    return entry


def _registered(tournament: Tournament) -> int:
    return tournament.entries.filter(state=EntryState.REGISTERED).count()


@transaction.atomic
def unregister(user: User, tournament_id: Any) -> Entry:
    """Withdraw before the start: the buy-in comes back from the pool. The same for both
    kinds (the arena's page withdraws here too)."""
    tournament = _lock(tournament_id, ANY_KIND)
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if entry is None or entry.state == EntryState.WITHDRAWN:
        raise TournamentError(
            _("You are not registered in this tournament."), code="not_registered"
        )
    # Say what happened to the tournament, not only that the entry is no longer
    # "registered" (it is playing, out, or refunded already).
    if tournament.state == State.RUNNING:
        raise TournamentError(
            _("The tournament has started: a buy-in is refunded only before the start."),
            code="started",
        )
    if tournament.state == State.FINISHED:
        raise TournamentError(
            _("The tournament is over: a buy-in is refunded only before the start."),
            code="finished",
        )
    if tournament.state in (State.CANCELLED, State.VOIDED):
        raise TournamentError(
            _("The tournament was called off and every buy-in refunded already."),
            code="called_off",
        )
    if tournament.buy_in:
        ledger.refund_buy_in(tournament.pk, user, entry=entry.registrations)
    entry.state = EntryState.WITHDRAWN
    entry.save(update_fields=["state"])
    _bump(tournament)
    return entry


@transaction.atomic
def cancel(user: User | None, tournament_id: Any) -> Tournament:
    """The sit-and-go's creator cancels it before the start (``None``: the system): every
    buy-in is refunded and the pool closed."""
    return cancel_locked(_lock(tournament_id, Kind.SIT_AND_GO), user)


def cancel_locked(
    tournament: Tournament, user: User | None, reason: str = EndReason.CREATOR
) -> Tournament:
    """The one cancel path of every kind (the caller holds the tournament's lock): before
    the start only, every buy-in back, the pool closed, and the duplicate schedule it owns
    (an arena's) closed with it, so its boards are revealed and no longer offered."""
    if user is not None and user.pk != tournament.created_by_id:
        raise TournamentError(_("Only its creator can cancel a tournament."), code="not_creator")
    if tournament.state == State.CANCELLED:
        return tournament
    if tournament.state != State.REGISTERING:
        raise TournamentError(
            _("The tournament has started: it can no longer be cancelled."), code="started"
        )
    ledger.refund_pool(tournament.pk)
    tournament.entries.filter(state=EntryState.REGISTERED).update(state=EntryState.REFUNDED)
    tournament.state = State.CANCELLED
    tournament.end_reason = reason
    tournament.bots_at = None
    tournament.finished_at = timezone.now()
    if tournament.schedule_id is not None:
        games_duplicate.close_schedule(tournament.schedule_id)
    _bump(tournament, "state", "end_reason", "bots_at", "finished_at")
    return tournament


def registration_refusal(user: User) -> str | None:
    """Why ``user`` may not sit at an ordinary table now (games.signals.sit_requested)."""
    entry = (
        Entry.objects.filter(user=user, state__in=ACTIVE_ENTRY).select_related("tournament").first()
    )
    if entry is None:
        return None
    return str(
        _("You are registered in the tournament “%(name)s”: it seats you when it starts.")
        % {"name": entry.tournament.name}
    )


# --- Bots -----------------------------------------------------------------------------


@transaction.atomic
def fill_with_bots(tournament_id: int, expected_bots_at: str | None = None) -> Tournament | None:
    """The bots' timer: bots take every free place and the tournament starts. Stale (a
    registration since moved the time, or it started) does nothing."""
    try:
        tournament = _lock(tournament_id, Kind.SIT_AND_GO)
    except TournamentError:
        return None
    if tournament.state != State.REGISTERING or not tournament.allow_bots:
        return None
    if tournament.bots_at is None:
        return None
    if expected_bots_at is not None and tournament.bots_at.isoformat() != expected_bots_at:
        return None
    if timezone.now() < tournament.bots_at:
        _schedule(
            "fill_with_bots", (tournament.pk, tournament.bots_at.isoformat()), tournament.bots_at
        )
        return None
    _seat_bots(tournament)
    return tournament


@transaction.atomic
def start_now_with_bots(user: User, tournament_id: Any) -> Tournament:
    """The creator's button: bots take the free places now and the tournament starts."""
    tournament = _lock(tournament_id, Kind.SIT_AND_GO)
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
    seating = structure.initial_seating(sorted(by_user), random.Random(secrets.randbits(64)))
    now = timezone.now()
    for number, user_ids in enumerate(seating, start=1):
        table = games.create_table(
            tournament.created_by,
            name=str(
                _("%(name)s · table %(number)s") % {"name": tournament.name[:40], "number": number}
            ),
            preset=tournament.preset,
            stake=tournament.stake,
            seats=structure.TABLE_SEATS,
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
    _bump(tournament, "state", "started_at", "bots_at", progress=True)
    logger.info("tournament %s started with %d players", tournament.pk, len(entries))


def _leave_other_table(user: User) -> None:
    """An entrant seated at an ordinary table (they sat before the guard could refuse it)
    leaves it as a player who stands up (RULES.md section 8): the tournament seats them."""
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
    tournament = _lock(link.tournament_id, Kind.SIT_AND_GO)
    entries = {
        e.user_id: e
        for e in Entry.objects.select_for_update().filter(
            tournament=tournament, user_id__in=list(deltas)
        )
    }
    positions = dict(round_.players.values_list("user_id", "position"))
    result = structure.settle_stacks(
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
    tournament.level = structure.level_for(
        tournament.rounds_played, tournament.rounds_per_level, len(tournament.levels)
    )
    if remaining - len(out) <= 1:
        _finish(tournament)
    _bump(tournament, "rounds_played", "level", progress=True)
    # This table plays its next round at the level now in force; the others take it at
    # the table step that follows (which also balances the tables).
    table.stake = tournament.stake
    table.save(update_fields=["stake"])
    _schedule("table_step", (tournament.pk,))
    return tournament


def _finish(tournament: Tournament) -> None:
    """One player has every chip: they win, and the pool pays the prize table."""
    winner = tournament.entries.select_for_update().get(state=EntryState.PLAYING)
    winner.state = EntryState.WON
    winner.place = 1
    winner.save(update_fields=["state", "place"])
    pool = ledger_selectors.pool_balance(tournament.pk)
    amounts = structure.prizes(tournament.players, pool)
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


# --- Prizes: paid, or held for a moderator ----------------------------------------------


def pay_or_hold(tournament: Tournament, prizes: Mapping[int, int]) -> bool:
    """Pay the prizes ({user id: xu}, adding up to the pool) from the pool, unless the
    collusion signals fire among the entrants and their rounds: then the pool goes whole
    into the ledger's prize hold, the prizes recorded, for a moderator to release them or
    return the buy-ins (docs/tournaments.md, prizes under review). True: held."""
    pool = ledger_selectors.pool_balance(tournament.pk)
    findings = collusion_findings(tournament) if pool else []  # nothing to hold: pay nothing
    if not findings:
        ledger.pay_prizes(tournament.pk, prizes)
        return False
    ledger.hold_prizes(
        tournament.pk,
        prizes,
        findings=findings,
        title=tournament.name,
        url=reverse("tournaments:detail", args=[tournament.pk]),
    )
    logger.warning(
        "tournament %s: prizes held for review (%s)",
        tournament.pk,
        ", ".join(sorted({str(f.get("signal")) for f in findings})),
    )
    return True


@transaction.atomic
def prize_review_changed(tournament_id: int) -> None:
    """The ledger decided (or held) the tournament's prizes: its page hears the new state
    with a version of its own (the state reads the review from the ledger)."""
    try:
        tournament = _lock(tournament_id, ANY_KIND)
    except TournamentError:
        return
    _bump(tournament)


def collusion_findings(tournament: Tournament) -> list[dict[str, Any]]:
    """Ask (``games.signals.collusion_check_requested``: moderation answers) whether the
    collusion signals fire among the tournament's entrants and its own rounds. A receiver
    that fails counts as a finding: prizes are never paid on a check that did not run."""
    from games.signals import collusion_check_requested

    user_ids = list(
        tournament.entries.exclude(state__in=[EntryState.WITHDRAWN, EntryState.REFUNDED])
        .order_by("user_id")
        .values_list("user_id", flat=True)
    )
    round_ids = list(
        Round.objects.filter(
            table__tournament_table__tournament=tournament, state=RoundState.SETTLED
        ).values_list("pk", flat=True)
    )
    findings: list[dict[str, Any]] = []
    for receiver, answer in collusion_check_requested.send_robust(
        sender=Tournament, user_ids=user_ids, round_ids=round_ids
    ):
        if isinstance(answer, Exception):
            logger.error("collusion check %r failed: %r", receiver, answer)
            findings.append({"signal": "check_failed", "users": []})
        elif answer:
            findings.extend(answer)
    return findings


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
        tournament = _lock(tournament_id, Kind.SIT_AND_GO)
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
            _bump(tournament, progress=True)
        return changed
    for seats_of in seated.values():
        seats_of.sort(key=lambda u: seats[u].position)
    moves, _left = structure.balancing_moves(seated, busy)
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
        _bump(tournament, progress=True)
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


def sweep_due(grace: timedelta = timedelta(seconds=2)) -> int:
    """Run what lost timers left due: bots to fill, table steps not run after a settlement;
    then the watchdog ends what made no progress for too long (``tournaments.watchdog``).

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
    for tournament_id in list(_needing_a_step()):
        try:
            moved += table_step(tournament_id, skip_locked=True)
        except Exception:
            logger.exception("sweeper could not run the table step of tournament %s", tournament_id)
    from tournaments import arena, watchdog

    moved += arena.sweep_due(grace)  # arenas: start, end, boards over, queues (arena.py)
    # Last: what no timer and no step above could move on for TOURNAMENT_STALL_MINUTES.
    moved += watchdog.sweep_stalled()
    return moved


def _needing_a_step() -> list[int]:
    """Running or just finished tournaments with a table that is not playing a round and
    either seats someone who is out, or could be balanced, broken or levelled."""
    from tournaments.selectors import tournaments_needing_a_step

    return tournaments_needing_a_step()
