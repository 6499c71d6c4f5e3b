"""Reads of either kind used in more than one place: the tournament list, a tournament's
public state (a kind adds its own part: ``register_kind_fields``), how it ended."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Round
from ledger import selectors as ledger_selectors
from tournaments import rules
from tournaments.models import (
    EndReason,
    Entry,
    EntryState,
    Kind,
    State,
    Tournament,
    TournamentTable,
)

PLAYING_STATES = (EntryState.PLAYING, EntryState.BUSTED, EntryState.WON)

KindFields = Callable[[Tournament], dict[str, Any]]
_kind_fields: dict[str, KindFields] = {}


def register_kind_fields(kind: str, fields: KindFields) -> None:
    """Add ``fields(tournament)`` (a kind's own part: the arena's points, fire, clock and
    queue) to the public state of every tournament of ``kind``. Registered at start-up
    (``TournamentsConfig.ready``), as the games app takes the tournaments' stakes
    (``games.stakes.register``): what both kinds share never imports either."""
    if kind not in Kind.values:
        raise ValueError(f"no such kind of tournament: {kind!r}")
    _kind_fields[kind] = fields


def listed_tournaments() -> QuerySet[Tournament]:
    """The list page: open registrations first, then running, then the latest finished."""
    return (
        Tournament.objects.filter(state__in=[State.REGISTERING, State.RUNNING])
        .annotate(
            registered=Count(
                "entries",
                filter=Q(entries__state__in=[EntryState.REGISTERED, *PLAYING_STATES]),
            )
        )
        .select_related("created_by")
        .order_by("-state", "-created_at")
    )


def recent_finished(limit: int = 10) -> QuerySet[Tournament]:
    """The latest tournaments that are over: finished, or voided by the server."""
    return (
        Tournament.objects.filter(state__in=[State.FINISHED, State.VOIDED])
        .select_related("created_by")
        .order_by("-finished_at")[:limit]
    )


def entry_of(tournament: Tournament, user: Any) -> Entry | None:
    if user is None or not user.is_authenticated:
        return None
    return Entry.objects.filter(tournament=tournament, user=user).first()


def table_of_tournament(table_id: int) -> Tournament | None:
    """The tournament a table belongs to, if any (the table page shows its state)."""
    link = TournamentTable.objects.filter(table_id=table_id).select_related("tournament").first()
    return link.tournament if link is not None else None


def entrant_row(e: Entry, returned: bool) -> dict[str, Any]:
    """What a standings row says of an entrant in either kind: who, their state, place and
    prize, and their table (``e.table`` loaded with its ``tournament_table``). A prize under
    review is shown as held (the page's ``review``); ``returned``, it was never paid: the
    buy-ins went back instead."""
    link = getattr(e.table, "tournament_table", None) if e.table is not None else None
    return {
        "user": e.user_id,
        "name": e.user.shown_name,
        "is_bot": e.user.plays_as_bot,
        "state": e.state,
        "place": e.place,
        "prize": 0 if returned else e.prize,
        "table": e.table_id,
        "table_number": link.number if link is not None else None,
    }


def tournament_state(tournament_id: int) -> dict[str, Any]:
    """Everything the tournament's page shows, as anyone may see it (no cards: chips,
    places and tables only). Events to the tournament's group are this, whole."""
    tournament = Tournament.objects.select_related("created_by").get(pk=tournament_id)
    entries = list(
        tournament.entries.exclude(state__in=[EntryState.WITHDRAWN])
        .select_related("user", "table__tournament_table")
        .order_by("pk")
    )
    pool = ledger_selectors.pool_balance(tournament.pk)
    review = ledger_selectors.prize_review(tournament.pk)
    returned = review is not None and review["status"] == "returned"
    paid_pool = pool if tournament.state != State.FINISHED else sum(e.prize for e in entries)
    prize_pool = tournament.players * tournament.buy_in
    rows: list[dict[str, Any]] = []
    for e in entries:
        rows.append({**entrant_row(e, returned), "stack": e.stack})
    # Standings: still in by chips, then those out by place.
    rows.sort(
        key=lambda r: (
            r["place"] is not None and r["state"] != EntryState.WON,
            r["place"] or 0,
            -r["stack"],
            r["name"],
        )
    )
    # The rank column: a final place where there is one, else the rank by chips among
    # those still in (equal stacks, equal rank); before the start, nobody has one.
    in_play = [r for r in rows if r["place"] is None and r["state"] == EntryState.PLAYING]
    for r in rows:
        r["rank"] = r["place"]
    for r in in_play:
        r["rank"] = 1 + sum(1 for o in in_play if o["stack"] > r["stack"])
    busts = sorted(
        (e for e in entries if e.state == EntryState.BUSTED),
        key=lambda e: (e.busted_at, -(e.place or 0)),
    )
    state: dict[str, Any] = {
        "type": "tournament",
        "tournament": tournament.pk,
        "version": tournament.version,
        "kind": tournament.kind,
        "name": tournament.name,
        "state": tournament.state,
        # Why it ended as it did (tournaments.models.EndReason), and the watchdog's bound
        # the page's note names; ``review``: its prizes held for a moderator (ledger).
        "end_reason": tournament.end_reason,
        "stall_minutes": settings.TOURNAMENT_STALL_MINUTES,
        "review": review,
        "players": tournament.players,
        "registered": sum(
            1 for e in entries if e.state in (EntryState.REGISTERED, *PLAYING_STATES)
        ),
        "left": sum(1 for e in entries if e.state == EntryState.PLAYING),
        "buy_in": tournament.buy_in,
        "starting_stack": tournament.starting_stack,
        "pool": 0 if returned else paid_pool if tournament.state == State.FINISHED else pool,
        "prize_pool": prize_pool,
        "chips_in_play": sum(e.stack for e in entries),
        "level": tournament.level,
        "stake": tournament.stake,
        "levels": tournament.levels,
        "rounds_per_level": tournament.rounds_per_level,
        "rounds_played": tournament.rounds_played,
        "prizes": rules.prizes(tournament.players, prize_pool),
        "bots_at": tournament.bots_at.isoformat() if tournament.bots_at else None,
        "standings": rows,
        "bust_order": [e.user_id for e in busts],
        # Each open table and when it deals next (None: playing a round, or not counting
        # down): a player's page counts their table's first deal down (docs/tournaments.md).
        "tables": [
            {
                "table": t.table_id,
                "number": t.number,
                "start_at": t.table.start_at.isoformat() if t.table.start_at else None,
                "dealt": t.dealt,  # False: its first deal is still to come
            }
            for t in tournament.tables.filter(broken_at__isnull=True)
            .select_related("table")
            .annotate(dealt=Exists(Round.objects.filter(table_id=OuterRef("table_id"))))
        ],
        "now": timezone.now().isoformat(),
    }
    own = _kind_fields.get(tournament.kind)
    if own is not None:  # an arena's points, fire, clock and queue (register_kind_fields)
        state.update(own(tournament))
    return state


def outcome_notes(state: dict[str, Any]) -> dict[str, str]:
    """What the page says of how the tournament ended and of its prizes held for review,
    in the reader's language (``static/tournaments/common.js`` says the same live)."""
    minutes = {"minutes": state["stall_minutes"]}
    end = ""
    if state["state"] == State.CANCELLED:
        end = {
            EndReason.CREATOR: _(
                "Its creator cancelled the tournament: every buy-in was refunded."
            ),
            EndReason.TOO_FEW: _(
                "Fewer than two players had joined at the start: the arena was cancelled and "
                "every buy-in refunded."
            ),
            EndReason.STALLED: _(
                "Nobody joined for %(minutes)s minutes: the server cancelled the tournament "
                "and refunded every buy-in."
            )
            % minutes,
        }.get(state["end_reason"], _("The tournament was cancelled: every buy-in was refunded."))
    elif state["state"] == State.VOIDED:
        end = (
            _(
                "The tournament was running with no end time (a fault now fixed): the server "
                "voided it and refunded every buy-in."
            )
            if state["end_reason"] == EndReason.NO_END
            else _(
                "Nothing moved at its tables for %(minutes)s minutes: the server voided the "
                "tournament, cancelled any round in play and refunded every buy-in. The fault "
                "was ours: nobody loses their buy-in."
            )
            % minutes
        )
    elif state["state"] == State.FINISHED and state["end_reason"] == EndReason.STUCK_ROUNDS:
        end = _(
            "Boards stuck at its tables after the end were cancelled so that the arena could "
            "finish; the points won before them decide the ranking."
        )
    status = (state.get("review") or {}).get("status")
    review = {
        "pending": _(
            "The prizes are under review: the server noticed signs of collusion among the "
            "entrants. A moderator will pay the prizes or return every buy-in; nothing is "
            "paid until then."
        ),
        "released": _("A moderator reviewed the prizes and released them: they are paid."),
        "returned": _(
            "A moderator reviewed the tournament and returned every buy-in instead of paying "
            "the prizes."
        ),
    }.get(status or "", "")
    return {"end": end, "review": review}
