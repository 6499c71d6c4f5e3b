"""Every change to arenas goes through here (docs/tournaments.md, Arena).

An arena runs for a fixed time. Its entrants wait in a queue; those present (connected)
and not paused are seated two to four at a new table of the tournament (``points``
stakes: nothing is held or paid) bound to the arena's own duplicate schedule, on the
lowest board none of them has been dealt (``rules.pair``). The table plays that one
board; its settlement fixes each player's points from the board's duplicate comparison as
it stands then (``record_points``), closes the table, and a moment later (the summary)
its players go back to the queue (``finish_table``). When the time is up nobody is seated
again; the boards in play finish, then the ranking is final, the pool pays the prize table
and the schedule closes (every board's seed revealed).

What both kinds share (the lock, the version, the timers, the entry checks, withdrawing,
the one cancel path, the prizes) is ``tournaments.services``, in the lock order it states:
the tournament's tables (ids ascending, ``games.services.lock_table``), then the tournament
row, then its entries, then the ledger's accounts. Timers carry what they expect and do
nothing when the arena moved on; ``sweep_arenas`` (from the sweeper,
``tournaments.sweeper``) runs what a lost timer left due.
"""

from __future__ import annotations

import logging
import random
import secrets
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import services as games
from games.errors import NotFound
from games.models import Preset, Round, RoundPlayer, StakesIn, Table
from games.selectors import active_round, latest_round
from games.selectors import duplicate as games_duplicate
from games.services import duplicate as games_duplicate_services
from ledger import selectors as ledger_selectors
from tournaments import events
from tournaments.arena import rules, selectors
from tournaments.errors import TournamentError
from tournaments.models import (
    ArenaResult,
    ArenaSocket,
    EndReason,
    Entry,
    EntryState,
    Kind,
    State,
    Tournament,
    TournamentTable,
)
from tournaments.rules import MAX_PLAYERS, prizes
from tournaments.services import (
    bump,
    cancel_locked,
    checked_terms,
    ensure_free_to_enter,
    lock,
    lock_open_tables,
    pay_buy_in,
    pay_or_hold,
    schedule,
)

logger = logging.getLogger(__name__)

MIN_MINUTES = 3
"""The shortest arena its page offers; ``settings.ARENA_MIN_MINUTES`` may lower what the
service accepts (the chaos harness runs a 2-minute arena)."""
MAX_MINUTES = 60
ARENA_STAKE = 1
"""An arena table's stake per chi: units, since nothing is paid (points come from the
duplicate comparison)."""


def schedule_owner(tournament_id: int) -> str:
    """The owner key of a tournament's duplicate schedule (``DuplicateSchedule.owner``):
    only the tables the tournament opens, presenting it, deal that schedule."""
    return f"tournament:{tournament_id}"


def _lock_arena(tournament_id: Any) -> Tournament:
    """The tournament, locked, if it is an arena (``services.lock``: else ``wrong_kind``)."""
    return lock(tournament_id, Kind.ARENA)


def _entry(tournament: Tournament, user: User) -> Entry:
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if entry is None or entry.state != EntryState.PLAYING:
        raise TournamentError(_("You are not playing in this arena."), code="not_playing")
    return entry


def _open_for_pairing(tournament: Tournament, now: datetime) -> bool:
    return (
        tournament.state == State.RUNNING
        and tournament.ends_at is not None
        and now < tournament.ends_at
    )


# --- Creating, joining, pausing, cancelling ----------------------------------------------


@transaction.atomic
def create_arena(
    user: User,
    *,
    name: str,
    minutes: int,
    buy_in: int,
    players: int = MAX_PLAYERS,
    preset: str = Preset.PORTAL,
) -> Tournament:
    """Open an arena that starts by itself ARENA_START_SECONDS from now; its creator
    joins it (paying the buy-in) and may start it earlier."""
    name, overrides = checked_terms(
        name=name,
        players=players,
        players_message=_("An arena takes at most %(low)s to %(high)s players."),
        buy_in=buy_in,
        preset=preset,
        start_seconds=settings.ARENA_START_COUNTDOWN,
    )
    shortest = settings.ARENA_MIN_MINUTES  # MIN_MINUTES unless lowered
    if not isinstance(minutes, int) or not shortest <= minutes <= MAX_MINUTES:
        raise TournamentError(
            _("An arena lasts %(low)s to %(high)s minutes."),
            code="bad_minutes",
            low=shortest,
            high=MAX_MINUTES,
        )
    now = timezone.now()
    tournament = Tournament.objects.create(
        kind=Kind.ARENA,
        name=name,
        created_by=user,
        players=players,
        buy_in=buy_in,
        preset=preset,
        rules_overrides=overrides,
        starting_stack=0,
        levels=[ARENA_STAKE],
        rounds_per_level=1,
        minutes=minutes,
        starts_at=now + timedelta(seconds=settings.ARENA_START_SECONDS),
    )
    # The arena's own boards: dealt only at the tables it opens (docs/duplicate.md), so
    # nobody learns them at a table of their own nor adds a result to its comparison.
    tournament.schedule = games_duplicate_services.create_schedule(
        name=str(_("Arena: %(name)s") % {"name": name})[:60],
        boards=settings.ARENA_BOARDS,
        preset=preset,
        rules_overrides=overrides,
        created_by=user,
        owner=schedule_owner(tournament.pk),
    )
    tournament.save(update_fields=["schedule"])
    _enqueue_start(tournament)
    join(user, tournament.pk)
    tournament.refresh_from_db()
    return tournament


@transaction.atomic
def join(user: User, tournament_id: Any) -> Entry:
    """Take a place (paying the buy-in into the pool): before the start, or while it runs
    (then straight into the queue). Joining twice is one entry."""
    tournament = _lock_arena(tournament_id)
    now = timezone.now()
    if tournament.state not in (State.REGISTERING, State.RUNNING) or (
        tournament.state == State.RUNNING and not _open_for_pairing(tournament, now)
    ):
        raise TournamentError(_("This arena is closed to new players."), code="closed")
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if entry is not None and entry.state in (EntryState.REGISTERED, EntryState.PLAYING):
        return entry  # a double click joins once
    taken = tournament.entries.filter(state__in=[EntryState.REGISTERED, EntryState.PLAYING]).count()
    if taken >= tournament.players:
        raise TournamentError(_("This tournament is full."), code="full")
    ensure_free_to_enter(user, tournament)
    if entry is None:
        entry = Entry(tournament=tournament, user=user, registrations=0)
    entry.registrations += 1
    if tournament.state == State.RUNNING:
        entry.state = EntryState.PLAYING
        entry.waiting_since = now
        entry.paused = False
    else:
        entry.state = EntryState.REGISTERED
    entry.save()
    pay_buy_in(tournament, user, entry)
    if tournament.state == State.RUNNING:
        _enqueue_pair(tournament.pk)
    bump(tournament, progress=True)
    return entry


@transaction.atomic
def set_paused(user: User, tournament_id: Any, paused: bool) -> Entry:
    """Pause (not seated again after the board in play, if any; the points stay in the
    ranking) or come back (to the end of the queue). Leaving a running arena is a pause:
    the buy-in is in the pool."""
    tournament = _lock_arena(tournament_id)
    if tournament.state != State.RUNNING:
        raise TournamentError(_("This arena is not running."), code="not_running")
    entry = _entry(tournament, user)
    if entry.paused == paused:
        return entry
    entry.paused = paused
    if entry.table_id is None:
        entry.waiting_since = None if paused else timezone.now()
    entry.save(update_fields=["paused", "waiting_since"])
    if not paused:
        _enqueue_pair(tournament.pk)
    bump(tournament)
    return entry


@transaction.atomic
def cancel_arena(user: User | None, tournament_id: Any) -> Tournament:
    """Cancel before the start (its creator; None: the system, when fewer than two
    joined): every buy-in back, the schedule closed (``services.cancel_locked``)."""
    tournament = _lock_arena(tournament_id)
    reason = EndReason.CREATOR if user is not None else EndReason.TOO_FEW
    return cancel_locked(tournament, user, reason)


# --- Starting ------------------------------------------------------------------------------


@transaction.atomic
def start_now(user: User, tournament_id: Any) -> Tournament:
    """The creator's button: start before the set time (two players at least)."""
    tournament = _lock_arena(tournament_id)
    if user.pk != tournament.created_by_id:
        raise TournamentError(_("Only its creator can start a tournament."), code="not_creator")
    if tournament.state != State.REGISTERING:
        raise TournamentError(_("Registration for this tournament is closed."), code="closed")
    if tournament.entries.filter(state=EntryState.REGISTERED).count() < 2:
        raise TournamentError(
            _("An arena needs at least two players to start."), code="too_few_players"
        )
    _start(tournament)
    return tournament


@transaction.atomic
def start_when_due(tournament_id: int, expected_starts_at: str | None = None) -> Tournament | None:
    """The start timer: start the arena (or cancel it, refunded, with fewer than two)."""
    try:
        tournament = _lock_arena(tournament_id)
    except TournamentError:
        return None
    if tournament.state != State.REGISTERING or tournament.starts_at is None:
        return None
    if expected_starts_at is not None and tournament.starts_at.isoformat() != expected_starts_at:
        return None
    if timezone.now() < tournament.starts_at:
        _enqueue_start(tournament)
        return None
    if tournament.entries.filter(state=EntryState.REGISTERED).count() < 2:
        logger.info("arena %s cancelled: fewer than two players at the start", tournament.pk)
        return cancel_arena(None, tournament.pk)
    _start(tournament)
    return tournament


def _start(tournament: Tournament) -> None:
    now = timezone.now()
    assert tournament.minutes is not None
    tournament.entries.filter(state=EntryState.REGISTERED).update(
        state=EntryState.PLAYING, waiting_since=now, paused=False
    )
    tournament.state = State.RUNNING
    tournament.started_at = now
    tournament.ends_at = now + timedelta(minutes=tournament.minutes)
    bump(tournament, "state", "started_at", "ends_at", progress=True)
    _enqueue_end(tournament)
    _pair(tournament, now)
    logger.info("arena %s started", tournament.pk)


# --- Presence (an arena socket) ------------------------------------------------------------


@transaction.atomic
def socket_opened(user: User, tournament_id: int, socket_id: uuid.UUID) -> bool:
    """An entrant's arena socket opened: they count as present (docs/tournaments.md).
    A waiting entrant coming back may be seated: the pairing runs. False: not an entrant."""
    entry = Entry.objects.filter(
        tournament_id=tournament_id,
        tournament__kind=Kind.ARENA,  # a sit-and-go has no queue to be present in
        user=user,
        state__in=[EntryState.REGISTERED, EntryState.PLAYING],
    ).first()
    if entry is None:
        return False
    ArenaSocket.objects.update_or_create(
        id=socket_id, defaults={"entry": entry, "seen_at": timezone.now()}
    )
    if entry.state == EntryState.PLAYING and entry.table_id is None and not entry.paused:
        _enqueue_pair(tournament_id)
        # Their status (away -> waiting) shows on the standings; not a change of the
        # tournament's rows, so the state goes out again at its version.
        events.changed(tournament_id)
    return True


def sockets_renewed(socket_ids: Sequence[uuid.UUID]) -> int:
    """The heartbeat of the process holding these sockets."""
    return ArenaSocket.objects.filter(id__in=list(socket_ids)).update(seen_at=timezone.now())


def socket_closed(socket_id: uuid.UUID, tournament_id: int) -> None:
    if ArenaSocket.objects.filter(id=socket_id).delete()[0]:
        events.changed(tournament_id)


# --- Pairing -------------------------------------------------------------------------------


@transaction.atomic
def pair(tournament_id: int) -> int:
    """The pairing timer: seat who is due (idempotent: it works from the queue it finds).
    Returns the number of tables opened."""
    try:
        tournament = _lock_arena(tournament_id)
    except TournamentError:
        return 0
    return _pair(tournament, timezone.now())


def _pair(tournament: Tournament, now: datetime) -> int:
    """Seat the queue as ``rules.pair`` says, each group at a new table on its board.

    The caller holds the tournament's lock. The new tables are nobody else's yet, so taking
    them after the tournament keeps the lock order. Waiting players who are not connected
    are left in the queue (not paired until they come back, docs/tournaments.md)."""
    if not _open_for_pairing(tournament, now):
        return 0
    queue = list(
        tournament.entries.select_for_update()
        .filter(
            state=EntryState.PLAYING,
            paused=False,
            table__isnull=True,
            waiting_since__isnull=False,
        )
        .select_related("user")
    )
    if len(queue) < 2:
        return 0
    present = selectors.present_users(tournament, [e.user_id for e in queue], now)
    queue = [e for e in queue if e.user_id in present]
    played = selectors.played_boards(tournament, [e.user_id for e in queue])
    waiting = [rules.Waiting(e.user_id, e.waiting_since, played[e.user_id]) for e in queue]  # type: ignore[arg-type]
    wait = timedelta(seconds=settings.ARENA_PAIR_WAIT_SECONDS)
    pairings = rules.pair(waiting, now, wait)
    if not pairings:
        later = rules.next_pairing_at(waiting, wait)
        if later is not None:
            _enqueue_pair(tournament.pk, later)
        return 0
    by_user = {e.user_id: e for e in queue}
    assert tournament.schedule_id is not None
    _ensure_boards(tournament.schedule_id, max(p.board for p in pairings))
    number = _last_number(TournamentTable.objects.filter(tournament=tournament))
    rng = random.Random(secrets.randbits(64))
    for pairing in pairings:
        number += 1
        table = games.create_table(
            tournament.created_by,
            name=str(
                _("%(name)s · board %(board)s")
                % {"name": tournament.name[:40], "board": pairing.board}
            ),
            stake=ARENA_STAKE,
            seats=rules.TABLE_MOST,
            min_balance=1,
            duplicate_schedule=tournament.schedule,
            schedule_owner=schedule_owner(tournament.pk),
            stakes_in=StakesIn.POINTS,
        )
        TournamentTable.objects.create(tournament=tournament, table=table, number=number)
        games_duplicate_services.assign_board(
            table.pk, tournament.schedule_id, pairing.board, owner=schedule_owner(tournament.pk)
        )
        seating = list(pairing.users)
        rng.shuffle(seating)  # who holds which hand of the board: drawn
        for user_id in seating:
            entry = by_user[user_id]
            entry.table = table
            entry.waiting_since = None
            entry.save(update_fields=["table", "waiting_since"])
            games.assign_seat(table, entry.user)
    bump(tournament, progress=True)
    logger.info("arena %s seated %d tables", tournament.pk, len(pairings))
    return len(pairings)


def _last_number(rows: QuerySet[Any]) -> int:
    """The highest ``number`` among ``rows`` (a tournament's tables, a schedule's boards), or
    0 when there is none."""
    return rows.order_by("-number").values_list("number", flat=True).first() or 0


def _ensure_boards(schedule_id: int, board: int) -> None:
    """Commit more boards when a table needs one past the schedule's end."""
    from games.models import DuplicateBoard

    last = _last_number(DuplicateBoard.objects.filter(schedule_id=schedule_id))
    if board > last:
        games_duplicate_services.extend_schedule(
            schedule_id, max(board - last, settings.ARENA_BOARDS)
        )


# --- A board's points (inside the round's settlement) ---------------------------------------


def record_points(table: Table, round_: Round, players: Sequence[RoundPlayer]) -> None:
    """``games.stakes.on_points``: an arena table's round settles. Fix each player's points
    for the board from its duplicate comparison as it stands now, and close the table (it
    plays one board). Runs inside the settlement, the table locked: the tournament and its
    entries are locked after it (the documented order)."""
    link = TournamentTable.objects.filter(table=table).select_related("tournament").first()
    if link is None or link.tournament.kind != Kind.ARENA or round_.board is None:
        return
    tournament = lock(link.tournament_id, Kind.ARENA)
    entries = {
        e.user_id: e
        for e in Entry.objects.select_for_update().filter(
            tournament=tournament, user_id__in=[p.user_id for p in players]
        )
    }
    board = round_.board
    # The settled results of this board at the arena's other tables (this round is not
    # settled yet). Only the arena's own: its schedule is dealt nowhere else
    # (games.services.duplicate.ensure_may_deal), and should a result of the board at
    # another table ever be in the database, it is no result of this competition.
    own_tables = set(
        TournamentTable.objects.filter(tournament=tournament).values_list("table_id", flat=True)
    )
    others = [
        r
        for r in games_duplicate.duplicate_scores(board.schedule_id, board.number)
        if r.table_id in own_tables and r.round_id != round_.pk
    ]
    positions = sorted(p.position for p in players)
    now = timezone.now()
    for p in players:
        entry = entries.get(p.user_id)
        if entry is None:
            continue
        key = games_duplicate.group_key(round_, positions.index(p.position), len(players))
        holders = [r.units for r in others if r.group == key]
        units = p.units or 0
        _score, matchpoints = games_duplicate.compare(units, holders)
        scored = rules.score_board(entry.streak, rules.base_points(units, matchpoints))
        ArenaResult.objects.create(
            tournament=tournament,
            entry=entry,
            round=round_,
            board=board.number,
            players=len(players),
            units=units,
            others=len(holders),
            matchpoints=matchpoints,
            base=scored.base,
            fire=scored.fire,
            points=scored.points,
        )
        entry.points += scored.points
        entry.streak = scored.streak
        entry.boards += 1
        if scored.points:
            entry.points_at = now
        entry.save(update_fields=["points", "streak", "boards", "points_at"])
    # One board a table: no deal after this one (a closed table deals nothing, and counts
    # down to nothing). Not a change of its own for the table's clients: the settlement's
    # event follows, and the players leave at the summary's end (finish_table).
    table.is_open = False
    Table.objects.filter(pk=table.pk).update(is_open=False)
    bump(tournament, progress=True)


# --- A table's end, the arena's end -----------------------------------------------------------


@transaction.atomic
def finish_table(tournament_id: int, table_id: int, *, skip_locked: bool = False) -> bool:
    """An arena table whose board is over (or that never dealt, at the end): its players
    stand up and go back to the queue (unless paused or the time is up), the table closes,
    and the queue is paired or, the time up and no board left in play, the arena ends.
    Idempotent. False: nothing to do (a round still in play, or done already)."""
    try:
        table = games.lock_table(table_id, skip_locked=skip_locked)
    except NotFound:
        return False
    try:
        tournament = _lock_arena(tournament_id)
    except TournamentError:
        return False
    link = TournamentTable.objects.filter(tournament=tournament, table=table).first()
    if link is None or link.broken_at is not None:
        return False
    if active_round(table) is not None:
        return False
    now = timezone.now()
    if latest_round(table) is None and _open_for_pairing(tournament, now) and table.is_open:
        return False  # seated and counting down to its deal
    release_table(tournament, table, link, now)
    if _open_for_pairing(tournament, now):
        _pair(tournament, now)
    elif tournament.state == State.RUNNING:
        finish_if_over(tournament, now)
    bump(tournament, progress=True)
    return True


def release_table(
    tournament: Tournament, table: Table, link: TournamentTable, now: datetime
) -> None:
    """A board over (or the time up): its players stand up and wait again (unless paused),
    and the table closes. The caller holds the table, then the tournament (the watchdog's
    stuck arena too)."""
    for entry in tournament.entries.select_for_update().filter(table=table).select_related("user"):
        games.unassign_seat(table, entry.user, reason="board_over")
        entry.table = None
        entry.waiting_since = None if entry.paused else now
        entry.save(update_fields=["table", "waiting_since"])
    link.broken_at = now
    link.save(update_fields=["broken_at"])
    if table.is_open:
        games.close_table(table.pk)


@transaction.atomic
def end(tournament_id: int, *, skip_locked: bool = False) -> bool:
    """The end timer: the time is up. Tables not playing a round close (their players do
    not get a board any more); once no round is in play the arena finishes. Idempotent."""
    try:
        tables = lock_open_tables(tournament_id, skip_locked=skip_locked)
    except NotFound:
        return False  # the sweeper: a table busy elsewhere; the next sweep tries again
    try:
        tournament = _lock_arena(tournament_id)
    except TournamentError:
        return False
    now = timezone.now()
    if tournament.state != State.RUNNING or tournament.ends_at is None:
        return False
    if now < tournament.ends_at:
        _enqueue_end(tournament)
        return False
    released = 0
    for table in tables:
        if active_round(table) is None:
            link = TournamentTable.objects.get(table=table)
            release_table(tournament, table, link, now)
            released += 1
    finished = finish_if_over(tournament, now)
    bump(tournament, progress=bool(released) or finished)
    return finished


def finish_if_over(tournament: Tournament, now: datetime) -> bool:
    """No table of the arena is playing: rank everyone, pay the prize table, close the
    schedule (every board revealed, so every deal can be verified)."""
    if TournamentTable.objects.filter(tournament=tournament, broken_at__isnull=True).exists():
        return False
    entries = list(
        tournament.entries.select_for_update().filter(state=EntryState.PLAYING).order_by("pk")
    )
    ranked = rules.rank(rules.Standing(e.pk, e.points, e.boards, e.points_at) for e in entries)
    by_id = {e.pk: e for e in entries}
    pool = ledger_selectors.pool_balance(tournament.pk)
    amounts = prizes(len(entries), pool) if entries else []
    paid: dict[int, int] = {}
    for place, standing in enumerate(ranked, start=1):
        entry = by_id[standing.entry]
        entry.place = place
        entry.prize = amounts[place - 1] if place <= len(amounts) else 0
        entry.state = EntryState.FINISHED
        entry.waiting_since = None
        if entry.prize:
            paid[entry.user_id] = entry.prize
    Entry.objects.bulk_update(entries, ["place", "prize", "state", "waiting_since"])
    pay_or_hold(tournament, paid)  # the collusion check first, as for a sit-and-go
    tournament.state = State.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["state", "finished_at"])
    if tournament.schedule_id is not None:
        games_duplicate_services.close_schedule(tournament.schedule_id)
    ArenaSocket.objects.filter(entry__tournament=tournament).delete()
    logger.info("arena %s finished: prizes %s", tournament.pk, paid)
    return True


# --- The sweeper ---------------------------------------------------------------------------


def sweep_arenas(grace: timedelta = timedelta(seconds=2)) -> int:
    """The arena's part of the sweeper (``tournaments.sweeper``): what lost timers left due,
    each step in its own transaction, tables locked elsewhere skipped (tried again at the
    next sweep): arenas to start, to end, tables whose board is over, queues to pair; and
    arena sockets whose process died."""
    now = timezone.now()
    due = selectors.arenas_due(now - grace)
    moved = 0
    for tournament_id in due["start"]:
        moved += _guarded(
            lambda t=tournament_id: start_when_due(t) is not None, "start", tournament_id
        )
    for tournament_id in due["end"]:
        moved += _guarded(lambda t=tournament_id: end(t, skip_locked=True), "end", tournament_id)
    for tournament_id in due["running"]:
        for table_id in selectors.tables_over(tournament_id, now - grace):
            moved += _guarded(
                lambda t=tournament_id, x=table_id: finish_table(t, x, skip_locked=True),
                "finish a table of",
                tournament_id,
            )
        moved += _guarded(lambda t=tournament_id: pair(t) > 0, "pair", tournament_id)
    ArenaSocket.objects.filter(seen_at__lt=now - 2 * selectors.away_after()).delete()
    return moved


def _guarded(step: Any, what: str, tournament_id: int) -> int:
    try:
        return int(bool(step()))
    except Exception:
        logger.exception("arena sweeper could not %s arena %s", what, tournament_id)
        return 0


# --- Timers (``tournaments.arena.tasks``) -------------------------------------------------


def _enqueue_start(tournament: Tournament) -> None:
    """The start timer, carrying the time it expects."""
    from tournaments.arena.tasks import arena_start_task as task  # the tasks import this module

    assert tournament.starts_at is not None
    schedule(task, (tournament.pk, tournament.starts_at.isoformat()), tournament.starts_at)


def _enqueue_pair(tournament_id: int, eta: datetime | None = None) -> None:
    """The pairing timer (idempotent: it seats the queue it finds), now or at ``eta``."""
    from tournaments.arena.tasks import arena_pair_task as task  # the tasks import this module

    schedule(task, (tournament_id,), eta)


def _enqueue_end(tournament: Tournament) -> None:
    """The end timer, at the arena's end."""
    from tournaments.arena.tasks import arena_end_task as task  # the tasks import this module

    schedule(task, (tournament.pk,), tournament.ends_at)
