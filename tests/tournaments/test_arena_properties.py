"""Properties of an arena's published rules (tournaments.arena_rules), for any input."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from tournaments import rules
from tournaments.arena import rules as arena_rules

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)

waiting_players = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=600),
        st.frozensets(st.integers(min_value=1, max_value=12), max_size=8),
    ),
    max_size=20,
).map(
    lambda rows: [
        arena_rules.Waiting(user, NOW - timedelta(seconds=waited), played)
        for user, (waited, played) in enumerate(rows, start=1)
    ]
)


@given(st.lists(st.integers(min_value=0, max_value=2), max_size=40))
def test_points_are_never_negative_and_add_up_to_the_base_doubled_on_fire(bases):  # type: ignore[no-untyped-def]
    scored = arena_rules.score_boards(bases)
    assert all(s.points >= 0 for s in scored)
    assert sum(s.points for s in scored) == sum(s.base * (2 if s.fire else 1) for s in scored)
    for i, s in enumerate(scored):
        assert s.fire == (i >= 2 and scored[i - 1].streak >= arena_rules.FIRE_AFTER)


@given(waiting_players, st.integers(min_value=0, max_value=120))
def test_pairing_seats_two_to_four_a_table_on_a_board_none_of_them_had(waiting, wait):  # type: ignore[no-untyped-def]
    pairings = arena_rules.pair(waiting, NOW, timedelta(seconds=wait))
    by_user = {w.user: w for w in waiting}
    seated = [u for p in pairings for u in p.users]
    assert len(seated) == len(set(seated))
    for p in pairings:
        assert 2 <= len(p.users) <= arena_rules.TABLE_MOST
        assert all(p.board not in by_user[u].played for u in p.users)
    if len(waiting) >= arena_rules.TABLE_MOST:
        assert len(seated) == len(waiting)  # four or more: nobody is left waiting
    if pairings:
        # The longest waiting sit together at the first table.
        queue = sorted(waiting, key=lambda w: (w.since, w.user))
        assert pairings[0].users == tuple(w.user for w in queue[: len(pairings[0].users)])


@given(st.integers(min_value=2, max_value=16), st.integers(min_value=0, max_value=10**7))
def test_the_prizes_of_an_arena_add_up_to_its_pool(entrants, pool):  # type: ignore[no-untyped-def]
    prizes = rules.prizes(entrants, pool)
    assert sum(prizes) == pool and all(p >= 0 for p in prizes)
    assert len(prizes) <= entrants
