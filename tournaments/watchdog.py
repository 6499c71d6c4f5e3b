"""The watchdog: no tournament stays stuck (docs/tournaments.md, the watchdog).

Every change that moves a tournament on records it (``Tournament.progressed_at``, set by
``services.bump(progress=True)``: a registration, the start, a settled round, a table
step that did something, a pairing, a board's points). A tournament in play that made no
progress for TOURNAMENT_STALL_MINUTES past any time of its own (the bots' wait, an arena's
start or end) is ended here, from the sweeper, so no pool sticks and no entrant stays
locked out of every table:

- before its start: cancelled, every buy-in refunded (``services.cancel_locked``);
- a running sit-and-go, or an arena running with no end time (a state only the old
  sit-and-go URL could make): voided. Any round in play at its tables is voided through
  the games' voiding service, everyone stood up, the tables closed, and every buy-in
  refunded through the ledger: a stall is the house's failure, so nobody loses their
  buy-in;
- an arena past its end whose tables are stuck: their rounds voided, then it finishes and
  pays as any arena does (the points fixed so far decide).

Lock order, as everywhere in the tournaments: its tables (ids ascending), the tournament,
its entries, the ledger's accounts.

The watchdog is the sweeper's last step (``tournaments.sweeper``) and sits with it above
both kinds: it finishes a stuck arena through the arena's own services.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import services as games
from games.errors import NotFound
from games.models import Table
from games.selectors import active_round
from games.services import duplicate as games_duplicate
from ledger import services as ledger
from tournaments.arena import services as arena
from tournaments.errors import TournamentError
from tournaments.models import (
    ArenaSocket,
    EndReason,
    EntryState,
    Kind,
    State,
    Tournament,
    TournamentTable,
)
from tournaments.services import ANY_KIND, bump, cancel_locked, lock, lock_open_tables

logger = logging.getLogger(__name__)


def stall_bound() -> timedelta:
    return timedelta(minutes=settings.TOURNAMENT_STALL_MINUTES)


def last_moved(tournament: Tournament) -> datetime:
    """When it last moved on, or is due to by its own clock (a registering sit-and-go's
    bots, an arena's start, a running arena's end), whichever is later."""
    times = [tournament.progressed_at]
    if tournament.state == State.REGISTERING:
        times += [t for t in (tournament.bots_at, tournament.starts_at) if t is not None]
    elif tournament.kind == Kind.ARENA and tournament.ends_at is not None:
        times.append(tournament.ends_at)
    return max(times)


def is_stalled(tournament: Tournament, now: datetime) -> bool:
    return tournament.state in (State.REGISTERING, State.RUNNING) and (
        now - last_moved(tournament) > stall_bound()
    )


def stalled_tournaments(now: datetime | None = None) -> list[int]:
    """Tournaments in play that made no progress for the bound (read without locks)."""
    now = now or timezone.now()
    candidates = Tournament.objects.filter(
        state__in=[State.REGISTERING, State.RUNNING], progressed_at__lt=now - stall_bound()
    ).order_by("pk")
    return [t.pk for t in candidates if is_stalled(t, now)]


def sweep_stalled(now: datetime | None = None) -> int:
    """The sweeper's part: end each stalled tournament, each in its own transaction; one
    whose tables are busy elsewhere waits for the next sweep."""
    ended = 0
    for tournament_id in stalled_tournaments(now):
        try:
            ended += end_stalled(tournament_id, skip_locked=True) is not None
        except Exception:
            logger.exception("watchdog could not end stalled tournament %s", tournament_id)
    return ended


@transaction.atomic
def end_stalled(tournament_id: int, *, skip_locked: bool = False) -> str | None:
    """End a tournament that made no progress for the bound. Returns what became of it
    (``cancelled``, ``voided`` or ``finished``), or None: not stalled (any more), gone, or
    (``skip_locked``) a table busy elsewhere."""
    try:
        tables = lock_open_tables(tournament_id, skip_locked=skip_locked)
    except NotFound:
        return None
    try:
        tournament = lock(tournament_id, ANY_KIND)
    except TournamentError:
        return None
    now = timezone.now()
    if not is_stalled(tournament, now):
        return None  # it moved on since the sweeper looked
    minutes = settings.TOURNAMENT_STALL_MINUTES
    if tournament.state == State.REGISTERING:
        logger.warning("tournament %s cancelled: no progress for %s min", tournament.pk, minutes)
        cancel_locked(tournament, None, EndReason.STALLED)
        return "cancelled"
    if tournament.kind == Kind.ARENA and tournament.ends_at is not None:
        logger.warning("arena %s: rounds stuck past its end; voided to finish it", tournament.pk)
        _finish_stuck_arena(tournament, tables, now)
        return "finished"
    reason = EndReason.STALLED if tournament.kind == Kind.SIT_AND_GO else EndReason.NO_END
    logger.warning("tournament %s voided (%s): every buy-in refunded", tournament.pk, reason)
    _void(tournament, tables, now, reason)
    return "voided"


def _void_live_round(table: Table) -> None:
    live = active_round(table)
    if live is not None:
        games.void_round(
            live.pk,
            reason=games.VoidReason.TOURNAMENT_STALLED,
            note=f"no progress for {settings.TOURNAMENT_STALL_MINUTES} min",
        )


def _void(tournament: Tournament, tables: list[Table], now: datetime, reason: str) -> None:
    """Void a running tournament: rounds in play voided, everyone stood up, tables closed,
    every buy-in back, nobody left ``engaged``."""
    for table in tables:
        _void_live_round(table)
        for seat in table.seat_set.select_related("user"):
            games.unassign_seat(table, seat.user, reason="voided")
        TournamentTable.objects.filter(table=table).update(broken_at=now)
        games.close_table(table.pk)
    ledger.refund_pool(tournament.pk)
    tournament.entries.select_for_update().filter(
        state__in=[
            EntryState.REGISTERED,
            EntryState.PLAYING,
            EntryState.BUSTED,
            EntryState.WON,
            EntryState.FINISHED,
        ]
    ).update(state=EntryState.REFUNDED, table=None, waiting_since=None)
    ArenaSocket.objects.filter(entry__tournament=tournament).delete()
    if tournament.schedule_id is not None:
        games_duplicate.close_schedule(tournament.schedule_id)
    tournament.state = State.VOIDED
    tournament.end_reason = reason
    tournament.bots_at = None
    tournament.finished_at = now
    bump(tournament, "state", "end_reason", "bots_at", "finished_at")


def _finish_stuck_arena(tournament: Tournament, tables: list[Table], now: datetime) -> None:
    """An arena past its end whose boards never finished: void them, release the tables,
    and finish as ``arena.end`` would have (the ranking, the prizes, the schedule)."""
    for table in tables:
        _void_live_round(table)
        link = TournamentTable.objects.get(table=table)
        arena.release_table(tournament, table, link, now)
    tournament.end_reason = EndReason.STUCK_ROUNDS
    arena.finish_if_over(tournament, now)
    bump(tournament, "end_reason")
