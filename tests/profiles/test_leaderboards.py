"""Leaderboards: people only, suspended players hidden, one's own rank below the top."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts import services as accounts
from games.models import Preset
from profiles import selectors, services
from profiles.models import Period
from tests.profiles.conftest import make_bot

pytestmark = pytest.mark.django_db


@pytest.fixture
def board_played(history: Any, four: list[Any]) -> list[Any]:
    an, binh, chi, dung = four
    history.round([an, binh], [40, -40])
    history.round([chi, dung], [25, -25])
    history.round([an, chi], [5, -5])
    services.record_settled_rounds()
    return four


def _names(entries: list[selectors.Entry]) -> list[str]:
    return [e.name for e in entries]


def test_the_net_board_ranks_by_net_xu_won(board_played: list[Any]) -> None:
    entries = selectors.board("net", Period.DAY, Preset.PORTAL)
    assert [(e.rank, e.name, e.value) for e in entries] == [
        (1, "an", 45),
        (2, "chi", 20),
        (3, "dung", -25),
        (4, "binh", -40),
    ]


def test_the_rounds_board_ranks_by_rounds_played_and_ties_share_a_rank(
    board_played: list[Any],
) -> None:
    entries = selectors.board("rounds", Period.WEEK, Preset.PORTAL)
    assert [(e.rank, e.value) for e in entries] == [(1, 2), (1, 2), (3, 1), (3, 1)]
    assert _names(entries)[:2] == ["an", "chi"]


def test_a_board_is_per_preset(board_played: list[Any]) -> None:
    assert selectors.board("net", Period.ALL, Preset.CLASSIC) == []


def test_yesterdays_rounds_are_not_on_todays_board(history: Any, four: list[Any]) -> None:
    history.round(four[:2], [40, -40], at=timezone.now() - timedelta(days=1, hours=1))
    services.record_settled_rounds()
    assert selectors.board("net", Period.DAY, Preset.PORTAL) == []
    assert len(selectors.board("net", Period.ALL, Preset.PORTAL)) == 2


def test_bots_are_not_ranked(board_played: list[Any]) -> None:
    make_bot(board_played[0])
    names = _names(selectors.board("net", Period.ALL, Preset.PORTAL))
    assert "an" not in names
    assert names[0] == "chi"
    assert selectors.rank_of(board_played[0], "net", Period.ALL, Preset.PORTAL) is None


def test_suspended_players_are_hidden_until_their_suspension_ends(
    board_played: list[Any],
) -> None:
    an = board_played[0]
    accounts.suspend_user(an, until=timezone.now() + timedelta(days=1), reason="gian lận")
    services.drop_cached_boards()
    assert "an" not in _names(selectors.board("net", Period.ALL, Preset.PORTAL))
    accounts.lift_suspension(an)
    services.drop_cached_boards()
    assert "an" in _names(selectors.board("net", Period.ALL, Preset.PORTAL))


def test_my_rank_is_shown_when_i_am_outside_the_top(
    board_played: list[Any], client: Any, settings: Any
) -> None:
    settings.PROFILES_BOARD_SIZE = 2
    binh = board_played[1]
    assert selectors.rank_of(binh, "net", Period.DAY, Preset.PORTAL) == selectors.Entry(
        4, binh.pk, "binh", -40
    )
    client.force_login(binh)
    page = client.get(reverse("profiles:leaderboards"), {"period": "day"}).content.decode()
    assert 'data-testid="my-rank"' in page
    assert "binh" in page


def test_a_boards_cache_is_dropped_when_new_rounds_are_recorded(
    board_played: list[Any], history: Any
) -> None:
    before = selectors.board("net", Period.DAY, Preset.PORTAL)
    history.round(board_played[2:], [100, -100])
    services.record_settled_rounds()
    # on_commit does not run inside the test's transaction: drop as the commit would.
    services.drop_cached_boards()
    after = selectors.board("net", Period.DAY, Preset.PORTAL)
    assert before != after
    assert after[0].name == "chi"


def test_a_cached_board_is_served_until_it_is_dropped(
    board_played: list[Any], history: Any
) -> None:
    before = selectors.board("net", Period.DAY, Preset.PORTAL)
    history.round(board_played[2:], [100, -100])
    services.record_settled_rounds()
    assert selectors.board("net", Period.DAY, Preset.PORTAL) == before


def test_the_leaderboards_page_refuses_nothing_it_does_not_know(
    client: Any, board_played: list[Any]
) -> None:
    response = client.get(reverse("profiles:leaderboards"), {"period": "x", "preset": "<b>"})
    assert response.status_code == 200
    assert "<b>" not in response.content.decode()
