"""A sit-and-go's published structure: levels, seating and balancing, a round's chips.

Pure functions of their arguments (no database, no clock), so the pages that publish the
structure, the services that apply it and the property tests all read the same rules. How
many may enter and the prize table are both kinds' (``tournaments.rules``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

TABLE_SEATS = 4
"""Four at a sit-and-go table (the game's table): seats are drawn and balanced to it."""

LEVEL_MULTIPLIERS = (1, 1.5, 2, 3, 4, 6, 8, 10, 15, 20, 30, 40, 60, 80, 100)
"""Each level's stake per chi as a multiple of the first level's; the last level stays."""


def level_stakes(first_stake: int) -> list[int]:
    """The stake per chi (in chips) of each level, 1 first."""
    return [max(1, round(first_stake * m)) for m in LEVEL_MULTIPLIERS]


def level_for(rounds_played: int, rounds_per_level: int, levels: int) -> int:
    """The level (1-based) after ``rounds_played`` rounds at the tournament's tables:
    it rises every ``rounds_per_level`` rounds, and the last level stays."""
    return min(levels, 1 + rounds_played // max(1, rounds_per_level))


# --- Seating -------------------------------------------------------------------------


def tables_needed(players: int) -> int:
    """As few tables as hold everyone at four a table (5–8 players: 2, 9–12: 3, 13–16: 4)."""
    return max(1, -(-players // TABLE_SEATS))


def initial_seating(player_ids: Sequence[int], rng: random.Random) -> list[list[int]]:
    """Draw seats: shuffled players dealt round the tables, so sizes differ by at most one."""
    shuffled = list(player_ids)
    rng.shuffle(shuffled)
    tables: list[list[int]] = [[] for _ in range(tables_needed(len(shuffled)))]
    for i, player in enumerate(shuffled):
        tables[i % len(tables)].append(player)
    return tables


@dataclass(frozen=True)
class Move:
    """Stand ``player`` up at ``source`` and seat them at ``target``."""

    player: int
    source: int
    target: int


def balancing_moves(tables: Mapping[int, Sequence[int]], busy: set[int]) -> tuple[list[Move], int]:
    """The moves that bring the tables of a tournament into balance, and how many tables
    are still to be broken afterwards.

    ``tables``: each open table's players still in (in seat order); ``busy``: tables playing
    a round, whose players cannot be moved now (a player may join a busy table: they watch
    and are dealt in at its next deal). The rules, applied as far as ``busy`` allows:

    1. break tables while fewer can seat everyone (the smallest free table first, its
       players to the smallest tables that have room), down to the final table;
    2. then move one player at a time from a largest free table to a smallest one until
       sizes differ by at most one.

    The player moved is the last one seated at the table (the fairest draw would be random;
    the last seat is predictable to test and makes no difference to anyone's chances).
    """
    seats = {table: list(players) for table, players in tables.items()}
    moves: list[Move] = []
    total = sum(len(p) for p in seats.values())
    needed = tables_needed(total)

    def room(exclude: int) -> list[int]:
        candidates = [t for t in seats if t != exclude and len(seats[t]) < TABLE_SEATS]
        return sorted(candidates, key=lambda t: (len(seats[t]), t))

    while len(seats) > needed:
        breakable = sorted((t for t in seats if t not in busy), key=lambda t: (len(seats[t]), t))
        if not breakable:
            break
        source = breakable[0]
        free_places = sum(TABLE_SEATS - len(seats[t]) for t in seats if t != source)
        if free_places < len(seats[source]):
            break
        for player in list(seats[source]):
            target = room(source)[0]
            moves.append(Move(player, source, target))
            seats[target].append(player)
        del seats[source]
    while True:
        largest = max((len(p) for t, p in seats.items() if t not in busy), default=0)
        smallest = min((len(p) for p in seats.values()), default=0)
        if largest - smallest <= 1:
            break
        source = min(t for t, p in seats.items() if t not in busy and len(p) == largest)
        target = min(t for t, p in seats.items() if len(p) == smallest)
        player = seats[source].pop()
        moves.append(Move(player, source, target))
        seats[target].append(player)
    return moves, len(seats) - needed


# --- A round's chips ------------------------------------------------------------------


@dataclass(frozen=True)
class ChipResult:
    stacks: dict[int, int]
    """Every player's stack after the round (the busted at zero)."""
    out: list[int]
    """Who went out in this round, best place first."""


def settle_stacks(
    stacks: Mapping[int, int],
    deltas: Mapping[int, int],
    stake: int,
    positions: Mapping[int, int],
) -> ChipResult:
    """Apply a settled round's chip deltas to the players' stacks (keys: user ids).

    A stack left below the round's stake per chi cannot pay one chi: that player is out,
    and their last chips go to the round's biggest winner (most won, then the bigger
    stack, then the earlier seat), who is never out. So chips are only ever moved, never
    made or lost, and a player out has zero chips. Among several out in one round, the one
    who began it with more chips places higher; equal, the earlier seat places higher.
    """
    if sum(deltas.values()) != 0:
        raise ValueError("chip deltas must add up to zero")
    after = {user: stacks[user] + deltas.get(user, 0) for user in stacks}
    if any(v < 0 for v in after.values()):
        raise ValueError("a stack would go below zero")
    players = [user for user in stacks if user in deltas]
    receiver = max(players, key=lambda u: (deltas[u], after[u], -positions.get(u, 0)))
    out = [u for u in players if u != receiver and after[u] < stake]
    for user in out:
        after[receiver] += after[user]
        after[user] = 0
    out.sort(key=lambda u: (-stacks[u], positions.get(u, 0)))
    return ChipResult(after, out)
