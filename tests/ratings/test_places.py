"""Places by result: the same update as the library's own ranking of the results."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import BradleyTerryFull

from ratings import services as ratings

results = st.lists(st.integers(min_value=-36, max_value=36), min_size=2, max_size=4)


@given(results)
def test_places_by_result_rate_as_the_library_rates_the_results_as_scores(units: list[int]) -> None:
    model = BradleyTerryFull()
    teams = [[model.rating(name=str(i))] for i in range(len(units))]
    by_places = model.rate(teams, ranks=[float(r) for r in ratings.ranks_by_result(units)])
    by_scores = model.rate(teams, scores=[float(u) for u in units])
    for (mine,), (theirs,) in zip(by_places, by_scores, strict=True):
        assert mine.mu == pytest.approx(theirs.mu)
        assert mine.sigma == pytest.approx(theirs.sigma)


@given(results)
def test_a_better_result_never_gains_less_than_a_worse_one_from_equal_ratings(
    units: list[int],
) -> None:
    model = BradleyTerryFull()
    teams = [[model.rating()] for _ in units]
    rated = model.rate(teams, ranks=[float(r) for r in ratings.ranks_by_result(units)])
    shown = [ratings.displayed(team[0].mu, team[0].sigma) for team in rated]
    for a, b in zip(units, shown, strict=True):
        for c, d in zip(units, shown, strict=True):
            if a > c:
                assert b >= d
            if a == c:
                assert b == d
