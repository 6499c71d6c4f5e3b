"""What both kinds of tournament publish alike: how many may enter, and the prize table.

Pure functions of their arguments (no database, no clock), like each kind's own rules
(``sitandgo.rules``: levels, seating, balancing, a round's chips; ``arena.rules``: pairing,
points, the ranking), so the pages that publish them, the services that apply them and the
property tests read one definition.
"""

from __future__ import annotations

MIN_PLAYERS = 4
MAX_PLAYERS = 16


PRIZE_PERCENTS: tuple[tuple[int, tuple[int, ...]], ...] = (
    (4, (100,)),
    (7, (65, 35)),
    (MAX_PLAYERS, (50, 30, 20)),
)
"""(up to this many entrants, the percentage of the pool paid to each place from 1st)."""


def prize_percents(entrants: int) -> tuple[int, ...]:
    """The prize table for ``entrants``: 4, winner takes all; 5–7, top 2; 8–16, top 3."""
    for most, percents in PRIZE_PERCENTS:
        if entrants <= most:
            return percents
    return PRIZE_PERCENTS[-1][1]


def prizes(entrants: int, pool: int) -> list[int]:
    """Each paid place's prize in xu, 1st first: its percentage of the pool rounded down;
    the xu the rounding leaves go to 1st. They add up to the pool exactly."""
    paid = [pool * percent // 100 for percent in prize_percents(entrants)]
    paid[0] += pool - sum(paid)
    return paid
