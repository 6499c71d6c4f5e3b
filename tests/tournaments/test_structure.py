"""The published structure: prize tables, levels, seating, balancing and a round's chips.
Pure functions; the properties hold for every input hypothesis finds."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from tournaments import rules
from tournaments.sitandgo import rules as structure

ENTRANTS = st.integers(min_value=rules.MIN_PLAYERS, max_value=rules.MAX_PLAYERS)


def test_the_prize_table_by_entrants():
    assert rules.prize_percents(4) == (100,)
    assert rules.prize_percents(6) == (65, 35)
    assert rules.prize_percents(16) == (50, 30, 20)


def test_the_rounding_remainder_goes_to_the_winner():
    assert rules.prizes(9, 1_001) == [501, 300, 200]


@given(ENTRANTS, st.integers(min_value=0, max_value=10**9))
def test_prizes_always_add_up_to_the_pool_and_never_rise_with_the_place(entrants, pool):
    paid = rules.prizes(entrants, pool)
    assert sum(paid) == pool
    assert paid == sorted(paid, reverse=True)
    assert all(p >= 0 for p in paid)


def test_levels_rise_every_n_rounds_and_the_last_level_stays():
    stakes = structure.level_stakes(10)
    assert stakes[:4] == [10, 15, 20, 30]
    assert structure.level_for(0, 4, len(stakes)) == 1
    assert structure.level_for(4, 4, len(stakes)) == 2
    assert structure.level_for(10_000, 4, len(stakes)) == len(stakes)


@given(ENTRANTS, st.randoms(use_true_random=False))
def test_the_draw_seats_everyone_once_at_tables_differing_by_at_most_one(entrants, rng):
    tables = structure.initial_seating(list(range(entrants)), rng)
    assert sorted(p for t in tables for p in t) == list(range(entrants))
    sizes = [len(t) for t in tables]
    assert max(sizes) <= structure.TABLE_SEATS and max(sizes) - min(sizes) <= 1
    assert len(tables) == structure.tables_needed(entrants)


@st.composite
def tournaments_in_play(draw):  # type: ignore[no-untyped-def]
    """Open tables with 0–4 players each, some of them playing a round."""
    count = draw(st.integers(min_value=1, max_value=4))
    sizes = draw(st.lists(st.integers(0, 4), min_size=count, max_size=count))
    player = iter(range(1000))
    tables = {100 + i: [next(player) for _ in range(n)] for i, n in enumerate(sizes)}
    busy = draw(st.sets(st.sampled_from(sorted(tables))))
    return tables, busy


@given(tournaments_in_play())
def test_balancing_moves_nobody_off_a_busy_table_and_balances_the_free_ones(case):
    tables, busy = case
    moves, _left = structure.balancing_moves(tables, busy)
    seats = {t: list(p) for t, p in tables.items()}
    for move in moves:
        assert move.source not in busy
        seats[move.source].remove(move.player)
        seats[move.target].append(move.player)
    assert sorted(p for ps in seats.values() for p in ps) == sorted(
        p for ps in tables.values() for p in ps
    )
    assert all(len(p) <= structure.TABLE_SEATS for p in seats.values())
    if not busy:
        left = [len(p) for p in seats.values() if p]
        assert max(left, default=0) - min(left, default=0) <= 1
        assert len(left) == structure.tables_needed(sum(left)) or sum(left) == 0


def test_seven_players_over_three_tables_break_one_table():
    moves, left = structure.balancing_moves({1: [1, 2, 3], 2: [4, 5], 3: [6, 7]}, set())
    assert left == 0
    assert {m.source for m in moves} == {2}  # the smallest table (lowest id) is broken


@st.composite
def rounds(draw):  # type: ignore[no-untyped-def]
    """A table of 2–4 stacks and a zero-sum round result within each player's cap."""
    n = draw(st.integers(2, 4))
    stacks = {u: draw(st.integers(1, 500)) for u in range(n)}
    stake = draw(st.integers(1, 50))
    deltas = dict.fromkeys(stacks, 0)
    for _ in range(draw(st.integers(0, 6))):
        a, b = draw(st.permutations(list(stacks)))[:2]
        cap = stacks[b] // (n - 1)
        amount = draw(st.integers(0, cap))
        if stacks[b] + deltas[b] - amount >= 0:
            deltas[a] += amount
            deltas[b] -= amount
    return stacks, deltas, stake


@given(rounds())
def test_a_round_moves_chips_between_stacks_and_never_makes_or_loses_one(case):
    stacks, deltas, stake = case
    result = structure.settle_stacks(stacks, deltas, stake, {u: u for u in stacks})
    assert sum(result.stacks.values()) == sum(stacks.values())
    assert all(v >= 0 for v in result.stacks.values())
    assert all(result.stacks[u] == 0 for u in result.out)
    assert len(result.out) < len(stacks)  # the round's biggest winner is never out
    staying = [u for u in stacks if u not in result.out]
    # Everyone still in can pay a chi, but the biggest winner (who may hold the only chips).
    assert sum(1 for u in staying if result.stacks[u] < stake) <= 1


def test_players_out_in_one_round_are_placed_by_the_chips_they_began_it_with():
    result = structure.settle_stacks({1: 30, 2: 50, 3: 100}, {1: -25, 2: -45, 3: 70}, 10, {})
    assert result.out == [2, 1] and result.stacks == {1: 0, 2: 0, 3: 180}


def test_the_seating_draw_depends_only_on_the_random_source():
    a = structure.initial_seating(list(range(9)), random.Random(1))
    b = structure.initial_seating(list(range(9)), random.Random(1))
    assert a == b
