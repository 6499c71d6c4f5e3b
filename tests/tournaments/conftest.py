from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from games.models import Round, RoundState

# Seeded deals: a test sees the same cards every run (autouse, shared with the games tests).
from tests.games.conftest import reproducible_deals  # noqa: F401
from tests.support.played import deal_when_due, run_timers


@pytest.fixture
def players(make_user: Any) -> list[Any]:
    """Four people, each with the sign-up grant (10,000 xu)."""
    return [make_user(name) for name in ("an", "binh", "chi", "dung")]


@pytest.fixture
def no_pair_wait() -> Any:
    """Two or three waiting are seated at once (the short wait is tested on its own)."""
    with override_settings(ARENA_PAIR_WAIT_SECONDS=0):
        yield


@pytest.fixture
def small_stacks() -> Any:
    """A structure that ends quickly: 40 chips each, 10 a chi from the first round."""
    with override_settings(
        TOURNAMENT_STARTING_STACK=40, TOURNAMENT_FIRST_STAKE=10, TOURNAMENT_LEVEL_ROUNDS=1
    ):
        yield


def play_round(table_id: int) -> Round | None:
    """Deal at a tournament table (its countdown run at once), let every hand be played
    for its owner at the deadline (docs/rules.md#timing), and run every timer to the end."""

    round_ = deal_when_due(table_id)
    if round_ is None:
        return None
    round_ = run_timers(round_)
    assert round_.state == RoundState.SETTLED
    return round_


def open_tables(tournament: Any) -> list[int]:
    """The ids of the tournament's tables not broken yet."""
    return list(
        tournament.tables.filter(broken_at__isnull=True)
        .order_by("number")
        .values_list("table_id", flat=True)
    )
