"""Reads of arenas: who is present, which boards they had, the live standings (the
arena's part of the public state), what the sweeper looks at."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.models import BoardSeen, Connection, RoundPlayer
from games.selectors import latest_round
from ledger import selectors as ledger_selectors
from tournaments.arena import rules
from tournaments.models import (
    ArenaResult,
    ArenaSocket,
    Entry,
    EntryState,
    State,
    Tournament,
    TournamentTable,
)
from tournaments.rules import prizes
from tournaments.selectors import entrant_row

RECENT_RESULTS = 12
"""How many of an entrant's latest boards the standings list (points and fire)."""


def away_after() -> timedelta:
    return timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)


def present_users(tournament: Tournament, user_ids: Collection[int], now: datetime) -> set[int]:
    """Who among ``user_ids`` is connected now: an arena socket of theirs (the arena page,
    or the panel on a table page) or a table socket anywhere (games presence: a player
    still on the page of the board they just played) renewed within the presence timeout."""
    since = now - away_after()
    ids = list(user_ids)
    present = set(
        ArenaSocket.objects.filter(
            entry__tournament=tournament, entry__user_id__in=ids, seen_at__gte=since
        ).values_list("entry__user_id", flat=True)
    )
    present |= set(
        Connection.objects.filter(user_id__in=ids, seen_at__gte=since).values_list(
            "user_id", flat=True
        )
    )
    return present


def played_boards(tournament: Tournament, user_ids: Collection[int]) -> dict[int, frozenset[int]]:
    """The boards of the arena's schedule each user has been dealt (voided rounds count)
    or was shown before its reveal (``BoardSeen``: staff who opened a round of it): the
    boards the pairing never seats them on."""
    boards: dict[int, set[int]] = defaultdict(set)
    if tournament.schedule_id is not None:
        ids = list(user_ids)
        dealt = RoundPlayer.objects.filter(
            user_id__in=ids, round__board__schedule_id=tournament.schedule_id
        ).values_list("user_id", "round__board__number")
        seen = BoardSeen.objects.filter(
            user_id__in=ids, board__schedule_id=tournament.schedule_id
        ).values_list("user_id", "board__number")
        for user_id, number in [*dealt, *seen]:
            boards[user_id].add(number)
    return {u: frozenset(boards.get(u, ())) for u in user_ids}


def status_of(entry: Entry, tournament: Tournament, present: set[int]) -> str:
    """What the standings say an entrant is doing: registered, playing (at a board),
    waiting (in the queue), away (waiting but disconnected: not paired), paused, finished."""
    if entry.state in (EntryState.REGISTERED, EntryState.FINISHED):
        return str(entry.state)
    if entry.table_id is not None:
        return "playing"
    if entry.paused:
        return "paused"
    if tournament.state != State.RUNNING:
        return "finished"
    return "waiting" if entry.user_id in present else "away"


def arena_fields(tournament: Tournament) -> dict[str, Any]:
    """The arena's part of the tournament's public state (``tournaments.selectors``, which
    adds it: ``register_kind_fields``): the ranking with points, fire, boards and status,
    the clock, the prizes as they stand."""
    now = timezone.now()
    entries = list(
        tournament.entries.filter(
            state__in=[EntryState.REGISTERED, EntryState.PLAYING, EntryState.FINISHED]
        )
        .select_related("user", "table__tournament_table")
        .order_by("pk")
    )
    present = present_users(tournament, [e.user_id for e in entries], now)
    review = ledger_selectors.prize_review(tournament.pk)
    returned = review is not None and review["status"] == "returned"  # no prize was paid
    recent: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for result in ArenaResult.objects.filter(tournament=tournament).order_by("-pk"):
        if len(recent[result.entry_id]) < RECENT_RESULTS:
            recent[result.entry_id].append(
                {"board": result.board, "points": result.points, "fire": result.fire}
            )
    order = {
        s.entry: i
        for i, s in enumerate(
            rules.rank(rules.Standing(e.pk, e.points, e.boards, e.points_at) for e in entries)
        )
    }
    entries.sort(key=lambda e: (e.place or 10**6, order[e.pk]))
    rows = []
    for rank, e in enumerate(entries, start=1):
        rows.append(
            {
                **entrant_row(e, returned),
                "status": status_of(e, tournament, present),
                "rank": e.place or rank,
                "points": e.points,
                "streak": e.streak,
                "fire": e.streak >= rules.FIRE_AFTER,
                "boards": e.boards,
                "results": list(reversed(recent.get(e.pk, []))),
                "stack": 0,
            }
        )
    entrants = len(entries)
    pool = ledger_selectors.pool_balance(tournament.pk)
    if tournament.state == State.FINISHED:
        pool = 0 if returned else sum(e.prize for e in entries)
    return {
        "arena": True,
        "minutes": tournament.minutes,
        "starts_at": tournament.starts_at.isoformat() if tournament.starts_at else None,
        "ends_at": tournament.ends_at.isoformat() if tournament.ends_at else None,
        "now": now.isoformat(),
        "time_left": (
            max(0, int((tournament.ends_at - now).total_seconds()))
            if tournament.ends_at is not None and tournament.state == State.RUNNING
            else None
        ),
        "schedule": tournament.schedule_id,
        "entrants": entrants,
        "registered": entrants,
        "pool": pool,
        "prize_pool": pool,
        "prizes": prizes(max(entrants, 1), pool),
        "standings": rows,
        "playing": sum(1 for r in rows if r["status"] == "playing"),
        "waiting": sum(1 for r in rows if r["status"] == "waiting"),
        "bust_order": [],
    }


def arenas_due(now: datetime) -> dict[str, list[int]]:
    """What the sweeper looks at (read without locks): arenas due to start, running ones
    past their end, running ones with a queue."""
    registering = Tournament.objects.filter(
        kind="arena", state=State.REGISTERING, starts_at__lte=now
    ).values_list("pk", flat=True)
    running = list(
        Tournament.objects.filter(kind="arena", state=State.RUNNING).values_list("pk", "ends_at")
    )
    return {
        "start": list(registering),
        "end": [pk for pk, ends_at in running if ends_at is not None and ends_at <= now],
        "running": [pk for pk, ends_at in running if ends_at is None or ends_at > now],
    }


def tables_over(tournament_id: int, before: datetime) -> list[int]:
    """Open tables of a running arena whose board ended before ``before`` less the summary."""
    summary = timedelta(seconds=settings.ARENA_SUMMARY_SECONDS)
    out = []
    for link in TournamentTable.objects.filter(
        tournament_id=tournament_id, broken_at__isnull=True
    ).select_related("table"):
        last = latest_round(link.table)
        if last is None or not last.is_finished:
            continue
        ended = last.settled_at or last.dealt_at
        if ended <= before - summary:
            out.append(link.table_id)
    return out
