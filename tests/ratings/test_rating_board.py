"""The rating board per preset, the profile's ratings and the history's rating changes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from accounts import services as accounts
from games import services
from games.models import Preset
from profiles import selectors as profiles
from ratings import selectors
from ratings import services as ratings
from ratings.models import Rating
from tests.profiles.conftest import make_bot
from tests.support.arranging import naive_arrangement
from tests.support.played import deal_for_two, run_timers

pytestmark = pytest.mark.django_db


def _rate(user: Any, mu: float, sigma: float = 2.0, preset: str = Preset.PORTAL) -> None:
    Rating.objects.create(
        user=user, preset=preset, mu=mu, sigma=sigma, display=ratings.displayed(mu, sigma), rounds=5
    )


@pytest.fixture
def rated(players: list[Any]) -> list[Any]:
    an, binh, chi, dung = players
    _rate(an, 30.0)
    _rate(binh, 20.0)
    _rate(chi, 30.0)
    _rate(dung, 25.0)
    return players


def test_the_rating_board_ranks_people_by_displayed_rating_and_ties_share_a_place(
    rated: list[Any],
) -> None:
    entries = profiles.rating_board(Preset.PORTAL)
    assert [(e.rank, e.name) for e in entries] == [(1, "an"), (1, "chi"), (3, "dung"), (4, "binh")]
    assert [e.value for e in entries] == sorted(
        (ratings.displayed(mu, 2.0) for mu in (30.0, 20.0, 30.0, 25.0)), reverse=True
    )


def test_the_rating_board_is_per_preset(rated: list[Any]) -> None:
    assert profiles.rating_board(Preset.CLASSIC) == []
    _rate(rated[1], 40.0, preset=Preset.CLASSIC)
    cache.clear()  # the board is cached for the boards' TTL
    assert [e.name for e in profiles.rating_board(Preset.CLASSIC)] == ["binh"]


def test_bots_are_not_on_the_rating_board(rated: list[Any]) -> None:
    make_bot(rated[0])
    assert "an" not in [e.name for e in profiles.rating_board(Preset.PORTAL)]
    assert profiles.rating_rank_of(rated[0], Preset.PORTAL) is None


def test_suspended_players_are_hidden_from_the_rating_board_and_do_not_push_others_down(
    rated: list[Any],
) -> None:
    an, binh = rated[0], rated[1]
    accounts.suspend_user(an, until=timezone.now() + timedelta(days=1), reason="gian lận")
    assert "an" not in [e.name for e in profiles.rating_board(Preset.PORTAL)]
    assert profiles.rating_rank_of(an, Preset.PORTAL) is None
    assert profiles.rating_rank_of(binh, Preset.PORTAL).rank == 3  # type: ignore[union-attr]


def test_my_rating_rank_is_shown_below_the_top(
    rated: list[Any], client: Any, settings: Any
) -> None:
    settings.PROFILES_BOARD_SIZE = 2
    binh = rated[1]
    client.force_login(binh)
    page = client.get(reverse("profiles:leaderboards")).content.decode()
    board = page[page.index('data-testid="board-rating"') :]
    mine = board[board.index('data-testid="my-rank"') :]
    assert '<td class="num">4</td>' in mine
    assert "binh" in mine
    assert profiles.rating_rank_of(binh, Preset.PORTAL) == profiles.Entry(
        4, binh.pk, "binh", ratings.displayed(20.0, 2.0)
    )


def test_the_profile_shows_the_rating_at_each_preset(rated: list[Any], client: Any) -> None:
    an = rated[0]
    _rate(an, 22.0, preset=Preset.CLASSIC)
    client.force_login(rated[1])
    page = client.get(reverse("profiles:profile", kwargs={"user_id": an.pk})).content.decode()
    assert 'data-preset="portal"' in page
    assert 'data-preset="classic"' in page
    assert [r.display for r in selectors.ratings_of(an)] == [
        ratings.displayed(22.0, 2.0),
        ratings.displayed(30.0, 2.0),
    ]


def test_the_round_history_shows_each_players_rating_change(
    players: list[Any], table: Any, client: Any
) -> None:
    round_ = deal_for_two(players, table)
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    round_ = run_timers(round_)
    client.force_login(players[0])
    page = client.get(reverse("games:round_detail", kwargs={"round_id": round_.pk}))
    changes = page.content.decode().count('data-testid="rating-change"')
    assert changes == 2
    shown = {c["after"] - c["before"] for c in round_.ratings["players"].values()}
    for change in shown:
        assert f'data-change="{change}"' in page.content.decode()
    listed = client.get(reverse("games:history")).content.decode()
    mine = round_.ratings["players"][str(players[0].pk)]
    assert f'data-testid="rating-change" data-change="{mine["after"] - mine["before"]}"' in listed
