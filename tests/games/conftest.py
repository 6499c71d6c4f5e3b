from __future__ import annotations

import random

import pytest

from games.models import Table
from games.services import duplicate
from tests.support.deals import seeded_deals
from tests.support.played import quick_table


@pytest.fixture
def players(make_user):  # type: ignore[no-untyped-def]
    """Four players, each with the sign-up grant in their wallet."""
    return [make_user(name) for name in ("an", "binh", "chi", "dung")]


@pytest.fixture
def table(players) -> Table:  # type: ignore[no-untyped-def]
    return quick_table(players[0], name="Bàn thử")


@pytest.fixture(autouse=True)
def reproducible_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process deals come from seeded seeds, so a test sees the same cards every run."""
    seeded_deals(monkeypatch)


# --- Duplicate deals (tests/support/duplicates.py plays them) ---------------------------


@pytest.fixture
def fixed_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Board seeds from a seeded generator: the same boards every run."""
    rng = random.Random(17)
    monkeypatch.setattr(duplicate, "new_board_seed", lambda: f"{rng.getrandbits(256):064x}")


@pytest.fixture
def people(make_user):  # type: ignore[no-untyped-def]
    """Six players: enough for three two-player tables of one board."""
    return [make_user(f"p{n}") for n in range(6)]


@pytest.fixture
def schedule(people, fixed_boards):  # type: ignore[no-untyped-def]
    """A four-board duplicate schedule with fixed seeds (short timers for tests)."""
    return duplicate.create_schedule(
        name="Giải thử",
        boards=4,
        rules_overrides={"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 5},
        created_by=people[0],
    )
