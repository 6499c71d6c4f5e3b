"""Reads of duplicate deals: who held which cards of a board, and their duplicate scores.

A board's hand ``k`` is deck[13k : 13k + 13] of the board's deal: the k-th player in seat
order of a round of that board (its ``slot``). Results compare among *holders*: settled
rounds of the same board, the same slot and the same number of players dealt in (so the
hands in play are the same set), under the same rules. A board belongs to one schedule,
and a competition's schedule is dealt only at that competition's tables
(``DuplicateSchedule.owner``), so holders are always players of the same competition.
docs/duplicate.md gives the formulas:

- ``score``: the player's units minus the mean units of the others who held those cards
  (None while nobody else has);
- ``matchpoints``: the share of those others the player did better than, a tie counting
  half (0..1; None while nobody else has).

Who may see a board's cards is decided here too (the last section): a board is a secret
while it may still be dealt, so its rounds' cards and results go only to those who can no
longer be dealt it (``board_audience``, ``hands_withheld``, ``viewable_rounds_filter``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from games.models import (
    BoardSeen,
    DuplicateBoard,
    DuplicateSchedule,
    Round,
    RoundPlayer,
    RoundState,
)
from games.rules.fair import commitment
from games.selectors.rounds import FINISHED_STATES


@dataclass(frozen=True)
class BoardResult:
    """One player's result on a board, compared with everyone who held the same cards."""

    round_id: int
    round_player_id: int
    user_id: int
    name: str
    is_bot: bool
    table_id: int
    table_name: str
    board: int
    slot: int
    """The hand of the board's deal (0-based): deck[13 * slot : 13 * slot + 13]."""
    players: int
    """How many players the round dealt in."""
    cards: list[str]
    arrangement: list[list[str]] | None
    auto_arranged: str
    status: str
    units: int
    others: int
    """How many others held these cards (same board, slot, players and rules)."""
    score: float | None
    """Units minus the mean units of those others; None while there are none."""
    matchpoints: float | None
    """The share of those others this result beat (a tie counts half); None if none."""
    hands: list[dict[str, Any]] | None
    """The settlement's name of each chi (as the round page shows them), if arranged."""
    settled_at: datetime | None
    group: str
    """Equal for results that held the same cards in the same game (board, slot, players
    and rules): the results compared with each other."""


@dataclass(frozen=True)
class PlayerTotal:
    """A player's duplicate results over a schedule."""

    user_id: int
    name: str
    is_bot: bool
    boards: int
    """Boards played to a settlement."""
    compared: int
    """Of those, boards on which someone else held the same cards."""
    score: float
    """The sum of the compared boards' scores."""
    matchpoints: float | None
    """The mean matchpoints of the compared boards (0..1), None if none was compared."""


def compare(units: int, others: list[int]) -> tuple[float | None, float | None]:
    """The duplicate score and matchpoints of ``units`` against the other holders' units:
    units minus their mean, and the share of them beaten (a tie counts half); None, None
    when there is nobody to compare with."""
    if not others:
        return None, None
    score = units - sum(others) / len(others)
    beaten = sum(1.0 if units > o else 0.5 if units == o else 0.0 for o in others)
    return score, beaten / len(others)


def group_key(round_: Round, slot: int, players: int) -> str:
    """Who held hand ``slot`` of this round's board among ``players``, under its rules."""
    rules = hashlib.sha256(json.dumps(round_.rules_json, sort_keys=True).encode()).hexdigest()
    return f"{round_.board_id}:{slot}:{players}:{rules[:16]}"


def _settled(rows: QuerySet[RoundPlayer]) -> list[RoundPlayer]:
    return list(
        rows.filter(round__state=RoundState.SETTLED, round__board__isnull=False)
        .select_related("round", "round__table", "round__board", "user")
        .order_by("round__settled_at", "round_id", "position")
    )


def _results(players: Iterable[RoundPlayer]) -> list[BoardResult]:
    """Every settled player's result, scored within their group of holders."""
    players = list(players)
    positions: dict[int, list[int]] = defaultdict(list)
    for p in players:
        positions[p.round_id].append(p.position)
    for seats in positions.values():
        seats.sort()
    keys: dict[int, str] = {}
    slots: dict[int, tuple[int, int]] = {}
    groups: dict[str, list[RoundPlayer]] = defaultdict(list)
    for p in players:
        seats = positions[p.round_id]
        slots[p.pk] = (seats.index(p.position), len(seats))
        keys[p.pk] = group_key(p.round, *slots[p.pk])
        groups[keys[p.pk]].append(p)
    out = []
    for p in players:
        holders = groups[keys[p.pk]]
        units = p.units or 0
        others = [h.units or 0 for h in holders if h.pk != p.pk]
        score, matchpoints = compare(units, others)
        board = p.round.board
        out.append(
            BoardResult(
                round_id=p.round_id,
                round_player_id=p.pk,
                user_id=p.user_id,
                name=p.user.shown_name,
                is_bot=p.user.plays_as_bot,
                table_id=p.round.table_id,
                table_name=p.round.table.name,
                board=board.number if board is not None else 0,
                slot=slots[p.pk][0],
                players=slots[p.pk][1],
                cards=p.cards,
                arrangement=p.arrangement,
                auto_arranged=p.auto_arranged,
                status=p.status,
                units=units,
                others=len(others),
                score=score,
                matchpoints=matchpoints,
                hands=_hands(p),
                settled_at=p.round.settled_at,
                group=keys[p.pk],
            )
        )
    return out


def _hands(p: RoundPlayer) -> list[dict[str, Any]] | None:
    for outcome in (p.round.settlement or {}).get("players", []):
        if outcome.get("id") == str(p.position):
            hands: list[dict[str, Any]] | None = outcome.get("hands")
            return hands
    return None


def duplicate_scores(schedule_id: int, board_no: int) -> list[BoardResult]:
    """Every settled result on a board, each scored against the others with its cards.

    The scores are as of now: a table that plays the board later adds a holder, and
    everyone's comparison with it.
    """
    rows = RoundPlayer.objects.filter(
        round__board__schedule_id=schedule_id, round__board__number=board_no
    )
    return _results(_settled(rows))


def schedule_results(schedule_id: int) -> list[BoardResult]:
    """Every settled result on every board of the schedule (one query)."""
    return _results(_settled(RoundPlayer.objects.filter(round__board__schedule_id=schedule_id)))


def schedule_totals(
    schedule_id: int, results: list[BoardResult] | None = None
) -> list[PlayerTotal]:
    """Per player over the schedule: boards played, compared, summed score, mean
    matchpoints; best score first (ties: more matchpoints, then fewer boards)."""
    if results is None:
        results = schedule_results(schedule_id)
    by_user: dict[int, list[BoardResult]] = defaultdict(list)
    for r in results:
        by_user[r.user_id].append(r)
    totals = []
    for user_id, rows in by_user.items():
        compared = [r for r in rows if r.score is not None]
        points = [r.matchpoints for r in compared if r.matchpoints is not None]
        totals.append(
            PlayerTotal(
                user_id=user_id,
                name=rows[0].name,
                is_bot=rows[0].is_bot,
                boards=len(rows),
                compared=len(compared),
                score=sum(r.score for r in compared if r.score is not None),
                matchpoints=sum(points) / len(points) if points else None,
            )
        )
    totals.sort(key=lambda t: (-t.score, -(t.matchpoints or 0.0), t.boards, t.user_id))
    return totals


def board_of(round_: Round) -> DuplicateBoard | None:
    return round_.board if round_.board_id is not None else None


@dataclass(frozen=True)
class Holders:
    """The viewer's hand of a duplicate board and everyone else who held it."""

    board: DuplicateBoard
    slot: int
    players: int
    mine: BoardResult | None
    """The viewer's own scored result (None if their round was voided)."""
    others: list[BoardResult]
    """The other settled rounds where these cards were held, first played first."""


def others_with_these_cards(round_: Round, viewer: User) -> Holders | None:
    """For the round page: who else held the viewer's cards of this duplicate round, how
    they arranged them and how they scored.

    None unless the viewer played this round and it is over: a player sees others'
    arrangements of a board only after playing it, and only settled rounds are listed, so
    no arrangement of a round still being played shows. Someone who did not play the
    round (a spectator) gets None: the cards compared would not be theirs.
    """
    board = board_of(round_)
    if board is None or not round_.is_finished:
        return None
    positions = sorted(round_.players.values_list("position", flat=True))
    mine = round_.players.filter(user=viewer).first()
    if mine is None:
        return None
    slot = positions.index(mine.position)
    key = group_key(round_, slot, len(positions))
    held = [r for r in duplicate_scores(board.schedule_id, board.number) if r.group == key]
    return Holders(
        board=board,
        slot=slot,
        players=len(positions),
        mine=next((r for r in held if r.round_id == round_.pk), None),
        others=[r for r in held if r.round_id != round_.pk],
    )


# --- The schedule's published commitments -----------------------------------------------


@dataclass(frozen=True)
class BoardCommitment:
    number: int
    seed_hash: str
    client_seed: str
    seed: str
    """Empty until the board is revealed."""
    rounds: int
    """Rounds dealt from the board so far."""
    verified: bool | None
    """For a revealed board: whether its seed matches the hash published for it."""


def board_commitments(schedule: DuplicateSchedule) -> list[BoardCommitment]:
    """A schedule's boards as published: every hash, and each seed once it is revealed."""
    rows = schedule.boards.annotate(dealt=Count("rounds")).order_by("number")
    return [
        BoardCommitment(
            number=b.number,
            seed_hash=b.seed_hash,
            client_seed=b.client_seed,
            seed=b.seed if b.is_revealed else "",
            rounds=b.dealt,
            verified=hmac.compare_digest(commitment(b.seed), b.seed_hash)
            if b.is_revealed
            else None,
        )
        for b in rows
    ]


def open_schedules() -> QuerySet[DuplicateSchedule]:
    """The schedules an ordinary table may deal (the lobby's form offers these): open, and
    no competition's (an arena's boards are dealt only at its own tables)."""
    return DuplicateSchedule.objects.filter(
        closed_at__isnull=True, owner=DuplicateSchedule.OPEN
    ).order_by("-created_at")


# --- Who may see a board's cards (docs/duplicate.md) ------------------------------------


def board_audience(round_: Round) -> list[int] | None:
    """Who may receive a duplicate round's cards now; None when anyone may.

    A board's cards are a secret while it may still be dealt (docs/duplicate.md): until
    it is revealed they go only to the round's own players and to those who can no longer
    be dealt it (``board_knowers``). Someone whose round of the board is still live
    elsewhere is not among them: they would see the hands they play against. Staff are not
    either: the table socket knows no exception (moderation has the replay, which records
    them as having seen the board).
    """
    if round_.board_id is None or _board_revealed(round_.board_id):
        return None
    own = RoundPlayer.objects.filter(round_id=round_.pk).values_list("user_id", flat=True)
    return sorted(set(own) | board_knowers(round_.board_id))


def board_knowers(board_id: int, user_ids: list[int] | None = None) -> set[int]:
    """Who can no longer be dealt this board and may see its cards: those who played it to
    the end (nobody is dealt a board twice) and those shown it (``BoardSeen``: staff who
    opened a round of it). Among ``user_ids`` only, if given."""
    played = RoundPlayer.objects.filter(round__board_id=board_id, round__state__in=FINISHED_STATES)
    seen = BoardSeen.objects.filter(board_id=board_id)
    if user_ids is not None:
        played, seen = played.filter(user_id__in=user_ids), seen.filter(user_id__in=user_ids)
    return set(played.values_list("user_id", flat=True)) | set(
        seen.values_list("user_id", flat=True)
    )


def hands_withheld(round_: Round, user: User | None, players: list[RoundPlayer]) -> bool:
    """Whether ``user`` must not see this round's cards nor its results
    (``board_audience``, for one user)."""
    if round_.board_id is None or _board_revealed(round_.board_id):
        return False
    if user is None or not user.is_authenticated:
        return True
    if any(p.user_id == user.pk for p in players):
        return False
    return not board_knowers(round_.board_id, [user.pk])


def _board_revealed(board_id: int) -> bool:
    # Read afresh: a settlement may have revealed the board a moment ago (round_finished).
    return DuplicateBoard.objects.filter(pk=board_id, revealed_at__isnull=False).exists()


def has_played_board(user: User, board: DuplicateBoard) -> bool:
    """Whether ``user`` was dealt the board and that round is over (settled or voided)."""
    return RoundPlayer.objects.filter(
        round__board=board,
        user=user,
        round__state__in=[RoundState.SETTLED, RoundState.CANCELLED],
    ).exists()


def boards_played_by(user: User) -> QuerySet[RoundPlayer]:
    """The user's seats in duplicate rounds that are over: those boards hold no secret
    for them any more."""
    return RoundPlayer.objects.filter(
        user=user,
        round__board__isnull=False,
        round__state__in=[RoundState.SETTLED, RoundState.CANCELLED],
    )


def viewable_rounds_filter(user: User) -> Q:
    """Rounds a non-player may look at: ordinary ones, duplicate ones of revealed boards,
    and those of a board ``user`` has played to the end (nobody is dealt a board twice) or
    was shown (``BoardSeen``: never dealt it either). Before that, a duplicate round's
    cards are a board the viewer may still be dealt."""
    played = boards_played_by(user).values("round__board_id")
    seen = BoardSeen.objects.filter(user=user).values("board_id")
    return (
        Q(board__isnull=True)
        | Q(board__revealed_at__isnull=False)
        | Q(board_id__in=played)
        | Q(board_id__in=seen)
    )
