"""What a table is played for (games.stakes): xu as ever, or points where nothing moves."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import selectors, services, stakes
from games.errors import SeatError
from games.models import StakesIn, Table
from ledger import selectors as ledger_selectors
from ledger.models import Account, Transfer
from tests.support.played import run_timers

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def points_table(players):  # type: ignore[no-untyped-def]
    table = services.create_table(
        players[0],
        name="Điểm",
        stake=10,
        stakes_in=StakesIn.POINTS,
        rules_overrides={"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 5},
    )
    for p in players[:3]:
        services.assign_seat(table, p)
    return table


def test_a_points_round_settles_with_nothing_held_or_paid(players, points_table, monkeypatch):
    seen: list[Any] = []
    monkeypatch.setattr(
        stakes, "_points_hooks", [lambda t, r, ps: seen.append([p.units for p in ps])]
    )
    transfers = Transfer.objects.count()
    Table.objects.filter(pk=points_table.pk).update(start_at=timezone.now())
    round_ = services.start_round_when_due(points_table.pk)
    assert round_ is not None
    round_ = run_timers(round_)
    assert round_.state == "settled"
    players_ = list(round_.players.all())
    assert sum(p.xu for p in players_) == 0
    assert seen == [[p.units for p in players_]]  # the hook had the results
    assert Transfer.objects.count() == transfers  # no xu moved
    assert not Account.objects.filter(round_id=round_.pk).exists()
    assert all(ledger_selectors.balance(p) == 10_000 for p in players[:3])
    assert round_.ratings["reason"] == "tournament"


def test_a_managed_table_is_not_listed_and_nobody_sits_there_by_themselves(players, points_table):
    assert points_table not in selectors.open_tables()
    with pytest.raises(SeatError) as refused:
        services.sit(players[3], points_table.pk)
    assert refused.value.code == "assigned_seats"


def test_an_ordinary_table_has_no_assigned_seats(players, table):
    with pytest.raises(SeatError):
        services.assign_seat(table, players[0])
    assert table.stakes_in == StakesIn.XU and not table.is_managed


def test_only_points_and_chips_providers_can_be_registered():
    with pytest.raises(ValueError, match="cannot register"):
        stakes.register(StakesIn.XU, stakes.PointsStakes())


def test_a_points_rounds_amounts_are_its_units_named_points_with_no_balance(
    client, players, points_table
):  # type: ignore[no-untyped-def]
    Table.objects.filter(pk=points_table.pk).update(start_at=timezone.now())
    round_ = services.start_round_when_due(points_table.pk)
    assert round_ is not None
    round_ = run_timers(round_)
    summary = selectors.summary_payload(round_)
    assert summary["stakes_in"] == "points"
    rows = {row["user"]: row for row in summary["players"]}
    units = dict(round_.players.values_list("user_id", "units"))
    assert any(units.values())  # the stake is 10: xu would be ten times these
    assert {user: row["xu"] for user, row in rows.items()} == units
    assert all(row["balance"] is None for row in rows.values())
    reveal = selectors.reveal_payload(round_)
    assert reveal["stakes_in"] == "points"
    assert all(abs(p["xu"]) == abs(p["units"]) for chi in reveal["chi"] for p in chi["pairs"])
    mine = round_.players.get(user=players[0])
    client.force_login(players[0])
    page = client.get(reverse("games:round_detail", args=[round_.pk])).content.decode()
    amount = f"{'+' if mine.units > 0 else '−' if mine.units < 0 else ''}{abs(mine.units)}"
    assert f"Bạn: {amount} điểm" in page
