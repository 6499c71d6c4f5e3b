"""Streaks across days, and the board of the day: by expected units, no bots, no suspended."""

from __future__ import annotations

import json
from datetime import time, timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.rules import format_cards, parse_cards
from games.rules.arrange import naive_arrangement
from practice import selectors, services
from tests.practice.conftest import DAY, best_chi

pytestmark = pytest.mark.django_db


def _play(user, deal, on_day, best: bool = True, at: time = time(12)):  # type: ignore[no-untyped-def]
    on_day(deal.day, at)
    chi = (
        best_chi(deal)
        if best
        else [format_cards(p) for p in naive_arrangement(parse_cards(deal.cards), "portal")]
    )
    return services.submit_daily(user, deal, json.dumps(chi))


def test_a_streak_counts_consecutive_days_and_survives_until_a_day_is_missed(
    make_deal, make_user, on_day
) -> None:  # type: ignore[no-untyped-def]
    user = make_user()
    days = [DAY - timedelta(days=n) for n in (4, 2, 1, 0)]
    for day in days[:3]:
        _play(user, make_deal(day), on_day)
    assert selectors.streak(user, DAY - timedelta(days=1)) == 2
    # Not played yet today: yesterday's streak is still alive.
    assert selectors.streak(user, DAY) == 2
    _play(user, make_deal(DAY), on_day)
    assert selectors.streak(user, DAY) == 3
    # A whole day missed: the streak is over.
    assert selectors.streak(user, DAY + timedelta(days=2)) == 0
    assert selectors.streak(make_user(), DAY) == 0


def test_the_board_ranks_by_expected_units_then_by_time(make_deal, make_user, on_day) -> None:  # type: ignore[no-untyped-def]
    deal = make_deal(DAY)
    late, weaker, early = make_user("muon"), make_user("yeu"), make_user("som")
    # Submitted in this order of rows, but "som" at 08:00 and "muon" at 21:00.
    _play(late, deal, on_day, at=time(21))
    _play(weaker, deal, on_day, best=False, at=time(7))
    _play(early, deal, on_day, at=time(8))
    board = selectors.board(deal, late)
    assert [row.rank for row in board] == [1, 2, 3]
    assert board[0].ev >= board[1].ev >= board[2].ev
    best_players = [row.name for row in board if row.name != "yeu"]
    assert best_players == ["som", "muon"]  # equal units: the earlier submit first
    assert [row.is_you for row in board] == [row.name == "muon" for row in board]
    attempt = selectors.attempt_of(late, deal)
    names = [row.name for row in board]
    assert attempt is not None and selectors.rank_of(attempt) == (names.index("muon") + 1, 3)


def test_bots_are_not_on_the_board_and_suspended_players_are_hidden(
    make_deal, make_user, on_day
) -> None:  # type: ignore[no-untyped-def]
    deal = make_deal(DAY)
    person, bot, suspended = make_user("nguoi"), make_user("may"), make_user("bi_khoa")
    User.objects.filter(pk=bot.pk).update(is_bot=True)
    for user in (person, bot, suspended):
        _play(user, deal, on_day)
    User.objects.filter(pk=suspended.pk).update(suspended_until=timezone.now() + timedelta(days=3))
    assert [row.name for row in selectors.board(deal)] == ["nguoi"]
    hidden = selectors.attempt_of(suspended, deal)
    assert hidden is not None and selectors.rank_of(hidden) == (0, 1)
    # The suspension over, the player is back on the board.
    User.objects.filter(pk=suspended.pk).update(suspended_until=timezone.now() - timedelta(days=1))
    assert [row.name for row in selectors.board(deal)] == ["nguoi", "bi_khoa"]
