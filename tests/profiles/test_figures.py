"""The figures of a profile, from a small fixed history recorded by the summary task."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Preset
from profiles import selectors, services
from tests.profiles.conftest import chi_pair, instant_pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(history: Any, four: list[Any]) -> list[Any]:
    an, binh = four[:2]
    now = timezone.now()
    history.round(
        four,
        [30, -10, -10, -10],
        pairs=[
            chi_pair(0, 1, [0, 0, 0], scoop="one"),
            chi_pair(0, 2, [0, 2, 0]),
            chi_pair(0, 3, [3, 0, None]),
            chi_pair(1, 2, [1, 2, 2]),
        ],
    )
    history.round(
        [an, binh],
        [-20, 20],
        pairs=[chi_pair(0, 1, [1, 1, 1])],
        fouls=(0,),
        stake=20,
        at=now - timedelta(days=3),
    )
    history.round(
        four,
        [60, -20, -20, -20],
        pairs=[instant_pair(0, i, 0) for i in (1, 2, 3)],
        instants={0: "six_pairs"},
        at=now - timedelta(days=10),
    )
    history.round(
        [an, binh],
        [5, -5],
        pairs=[chi_pair(0, 1, [0, 0, 1])],
        preset=Preset.CLASSIC,
        at=now - timedelta(days=40),
    )
    services.record_settled_rounds()
    return four


def test_rounds_played_counts_every_settled_round(played: list[Any]) -> None:
    assert selectors.figures(played[0]).rounds == 4
    assert selectors.figures(played[2]).rounds == 2


def test_net_xu_is_summed_over_7_days_30_days_and_all_time(played: list[Any]) -> None:
    figures = selectors.figures(played[0])
    assert (figures.net_7_days, figures.net_30_days, figures.net_xu) == (10, 70, 75)


def test_net_xu_comes_from_the_ledger_including_the_house_fee(
    history: Any, four: list[Any], settings: Any
) -> None:
    settings.HOUSE_FEE_PERCENT = "10"
    history.round(four[:2], [100, -100])
    services.record_settled_rounds()
    assert selectors.figures(four[0]).net_xu == 90  # the ledger kept 10 as the fee
    assert selectors.figures(four[1]).net_xu == -100


def test_the_biggest_win_is_the_best_single_round(played: list[Any]) -> None:
    assert selectors.figures(played[0]).biggest_win == 60
    assert selectors.figures(played[2]).biggest_win == 0  # never won: no negative "win"


def test_the_share_of_chi_won_is_counted_per_chi_against_each_opponent(played: list[Any]) -> None:
    # an: 5 chi contests (3 opponents, then 1, then 1 in the classic round; the instant
    # round has none); chi 1 taken 3 times, chi 2 3 times, chi 3 twice.
    assert selectors.figures(played[0]).chi_share == (3 / 5, 3 / 5, 2 / 5)


def test_the_binh_lung_rate_is_fouled_rounds_over_rounds(played: list[Any]) -> None:
    assert selectors.figures(played[0]).foul_rate == 1 / 4
    assert selectors.figures(played[3]).foul_rate == 0


def test_the_favourite_stake_is_the_most_played_one(played: list[Any]) -> None:
    assert selectors.figures(played[0]).favourite_stake == 10


def test_instant_wins_are_counted_by_mau_binh_kind(played: list[Any]) -> None:
    from django.utils import translation

    with translation.override("en"):
        assert selectors.figures(played[0]).instants == [("Six pairs", 1)]
    assert selectors.figures(played[1]).instants == []


def test_scoops_made_are_counted_by_kind(played: list[Any]) -> None:
    scoops = dict(selectors.figures(played[0]).scoops)
    assert list(scoops.values()) == [1, 0]  # sập 3 chi once, sập làng never
    assert sum(dict(selectors.figures(played[1]).scoops).values()) == 0


def test_a_player_without_rounds_has_empty_figures(make_user: Any) -> None:
    figures = selectors.figures(make_user("moi"))
    assert figures.rounds == 0
    assert figures.chi_share == (None, None, None)
    assert figures.foul_rate is None
    assert figures.favourite_stake is None


def test_recent_rounds_are_newest_first(played: list[Any]) -> None:
    recent = list(selectors.recent_rounds(played[0]))
    assert [r.net_xu for r in recent] == [30, -20, 60, 5]


def test_rounds_at_private_tables_count_but_are_not_listed(history: Any, four: list[Any]) -> None:
    history.round(four[:2], [7, -7])
    history.round(four[:2], [100, -100], private=True)
    services.record_settled_rounds()
    assert [r.net_xu for r in selectors.recent_rounds(four[0])] == [7]
    assert selectors.figures(four[0]).net_xu == 107


def test_the_daily_history_has_a_point_for_every_day(played: list[Any]) -> None:
    points = selectors.daily_history(played[0], days=30)
    assert len(points) == 30
    assert points[-1].net_xu == 30 and points[-1].rounds == 1
    assert sum(p.net_xu for p in points) == 70


def test_the_weekly_history_gives_chi_shares_and_binh_lung_per_week(played: list[Any]) -> None:
    weeks = selectors.weekly_history(played[0], weeks=12)
    assert sum(w.rounds for w in weeks) == 4
    assert sum(w.net_xu for w in weeks) == 75
    assert sum((w.foul_rate or 0) * w.rounds for w in weeks) == pytest.approx(1)
