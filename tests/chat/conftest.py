from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.cache import cache

from accounts.roles import MODERATORS
from games import services as games
from games.models import Table


@pytest.fixture(autouse=True)
def _fresh_rate_counters() -> None:
    cache.clear()


@pytest.fixture
def players(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("an", "binh", "chi", "dung")]


@pytest.fixture
def table(players: list[Any]) -> Table:
    """An's table, where An and Bình sit; Chi and Dũng watch."""
    created = games.create_table(players[0], name="Bàn chat", stake=10)
    for player in players[:2]:
        games.sit(player, created.pk)
    return created


@pytest.fixture
def moderator(make_user: Any) -> Any:
    user = make_user("mod")
    group, _created = Group.objects.get_or_create(name=MODERATORS)
    user.groups.add(group)
    return user
