"""Duplicate tables for tests: fixed board seeds, a schedule, playing a board to its end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import services
from games.models import Round, Table
from tests.support.arranging import naive_arrangement
from tests.support.played import run_timers

Arrange = Callable[[list[str]], list[list[str]]]


def as_dealt(cards: list[str]) -> list[list[str]]:
    return [cards[:5], cards[5:10], cards[10:]]


def duplicate_table(host: Any, schedule: Any, name: str = "Bàn lặp", **rules: Any) -> Table:
    return services.create_table(
        host, name=name, stake=10, duplicate_schedule=schedule, rules_overrides=rules or None
    )


def play(table: Table, users: list[Any], arrange: list[Arrange] | None = None) -> Round:
    """``users`` sit, the first starts, each submits with their ``arrange``, all stand."""
    for user in users:
        services.sit(user, table.pk)
    round_ = services.start_round(users[0], table.pk)
    ways = arrange or [naive_arrangement] * len(users)
    for rp, way in zip(round_.players.select_related("user"), ways, strict=True):
        services.submit_arrangement(rp.user, round_.pk, way(rp.cards))
    round_ = run_timers(round_)
    for user in users:
        services.stand(user)
    return round_
