"""An arena's published rules: who is seated together on which board, the points a board
is worth, the fire, the ranking. docs/tournaments.md (Arena) says the same in words.

Pure functions of their arguments (no database, no clock), so the services that apply the
rules, the pages that explain them and the property tests read one definition.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

TABLE_MOST = 4
"""At most four at an arena table (the game's table)."""

GOOD = 2
"""A good board's base points: the result beat most of those who held the same cards."""

FIRE_AFTER = 2
"""Good boards in a row after which a player is on fire: points count double."""


# --- Points -----------------------------------------------------------------------------


def base_points(units: int, matchpoints: float | None) -> int:
    """A board's base points, 0 to 2.

    Compared (someone had held these cards before): 2 when the result beat more than half
    of them (matchpoints above 0.5), 1 at exactly half, 0 below. Not compared (the first to
    hold them, as far as the results of the moment go): the table decides, 2 for a win
    (units above 0), 1 for even, 0 for a loss.
    """
    if matchpoints is None:
        return GOOD if units > 0 else 1 if units == 0 else 0
    return GOOD if matchpoints > 0.5 else 1 if matchpoints == 0.5 else 0


@dataclass(frozen=True)
class Scored:
    """What one board adds: its base, whether it was played on fire, its points and the
    streak of good boards after it."""

    base: int
    fire: bool
    points: int
    streak: int


def score_board(streak: int, base: int) -> Scored:
    """The points of a board played after ``streak`` good boards in a row: on fire (two or
    more) they count double; a good board lengthens the streak, any other ends it."""
    fire = streak >= FIRE_AFTER
    return Scored(
        base=base,
        fire=fire,
        points=base * 2 if fire else base,
        streak=streak + 1 if base == GOOD else 0,
    )


def score_boards(bases: Iterable[int]) -> list[Scored]:
    """A sequence of boards from the first: each scored after the streak of those before."""
    out: list[Scored] = []
    streak = 0
    for base in bases:
        scored = score_board(streak, base)
        out.append(scored)
        streak = scored.streak
    return out


# --- Ranking ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    entry: int
    """The entry's id: it joined earlier than a higher one (the last tie-break)."""
    points: int
    boards: int
    points_at: datetime | None
    """When the points last grew."""


def ranking_key(row: Standing) -> tuple[int, int, float, int]:
    """Most points first; equal points: fewer boards played (the same points from fewer
    boards), then who reached them first, then who joined first."""
    reached = row.points_at.timestamp() if row.points_at is not None else float("inf")
    return (-row.points, row.boards, reached, row.entry)


def rank(rows: Iterable[Standing]) -> list[Standing]:
    return sorted(rows, key=ranking_key)


# --- Pairing ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Waiting:
    """A player in the arena's queue, present (connected), not paused."""

    user: int
    since: datetime
    played: frozenset[int]
    """The boards of the arena's schedule they have been dealt (voided rounds too)."""


@dataclass(frozen=True)
class Pairing:
    users: tuple[int, ...]
    """Longest waiting first."""
    board: int
    """The lowest board none of them has been dealt (may be past the schedule's end: the
    caller commits more boards)."""


def table_sizes(waiting: int) -> list[int]:
    """Seat ``waiting`` players at as few tables of at most four as hold them, sizes
    differing by at most one, larger first: 5 -> 3 + 2, 6 -> 3 + 3, 7 -> 4 + 3."""
    if waiting < 2:
        return []
    tables = -(-waiting // TABLE_MOST)
    small, extra = divmod(waiting, tables)
    return [small + 1] * extra + [small] * (tables - extra)


def first_free_board(played: Iterable[frozenset[int]]) -> int:
    taken = frozenset().union(*played)
    board = 1
    while board in taken:
        board += 1
    return board


def pair(waiting: Sequence[Waiting], now: datetime, wait: timedelta) -> list[Pairing]:
    """Who sits together now, on which board.

    Four or more in the queue: everyone, at once, at tables of two to four (``table_sizes``)
    filled from the longest waiting. Two or three: only once the longest waiting of them has
    waited ``wait`` (others may come back from their boards to fill a table); one: nobody.
    Each table gets the lowest board none of its players has been dealt.
    """
    queue = sorted(waiting, key=lambda w: (w.since, w.user))
    if len(queue) < 2:
        return []
    if len(queue) < TABLE_MOST and now - queue[0].since < wait:
        return []
    out: list[Pairing] = []
    start = 0
    for size in table_sizes(len(queue)):
        group = queue[start : start + size]
        start += size
        out.append(
            Pairing(
                users=tuple(w.user for w in group),
                board=first_free_board(w.played for w in group),
            )
        )
    return out


def next_pairing_at(waiting: Sequence[Waiting], wait: timedelta) -> datetime | None:
    """When the queue as it stands would be seated (two or three waiting), if not now."""
    if not 2 <= len(waiting) < TABLE_MOST:
        return None
    return min(w.since for w in waiting) + wait
