"""Players, staff and played rounds for the moderation tests."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group

from accounts.roles import MODERATORS
from games import services as games
from games.models import Round, RoundState, Table
from ledger import services as ledger_services
from tests.support.arranging import naive_arrangement
from tests.support.deals import seeded_deals
from tests.support.played import quick_table, run_timers


@pytest.fixture(autouse=True)
def reproducible_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process deals come from seeded seeds, so a test sees the same cards every run."""
    seeded_deals(monkeypatch)


@pytest.fixture
def players(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("an", "binh", "chi", "dung")]


def _staff(make_user: Any, name: str, *, moderator: bool = False, admin: bool = False) -> Any:
    user = make_user(name)
    if moderator:
        group, _created = Group.objects.get_or_create(name=MODERATORS)
        user.groups.add(group)
    if admin:
        user.is_staff = user.is_superuser = True
        user.save(update_fields=["is_staff", "is_superuser"])
    return user


@pytest.fixture
def moderator(make_user: Any) -> Any:
    return _staff(make_user, "mod", moderator=True)


@pytest.fixture
def other_moderator(make_user: Any) -> Any:
    return _staff(make_user, "mod2", moderator=True)


@pytest.fixture
def admin(make_user: Any) -> Any:
    return _staff(make_user, "admin", admin=True)


@pytest.fixture
def other_admin(make_user: Any) -> Any:
    return _staff(make_user, "admin2", admin=True)


@pytest.fixture
def table(players: list[Any]) -> Table:
    return quick_table(players[0], name="Bàn thử")


def play_round(players: list[Any], table: Table, n: int = 2) -> Round:
    """Sit n players, deal, everyone arranges, and run the timers to the settlement."""
    for p in players[:n]:
        games.sit(p, table.pk)
    round_ = games.start_round(players[0], table.pk)
    for rp in round_.players.select_related("user"):
        games.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    if run_timers(round_, steps=8).state != RoundState.SETTLED:
        raise AssertionError("the round did not settle")
    for p in players[:n]:
        games.stand(p)
    return round_


@pytest.fixture
def settled_round(players: list[Any], table: Table) -> Round:
    return play_round(players, table)


@pytest.fixture
def corrupted_round(players: list[Any], table: Table, monkeypatch: pytest.MonkeyPatch) -> Round:
    """A round the ledger paid the wrong way round (as a bug in the payout might)."""
    real = ledger_services.settle_round

    def swapped(round_id: int, deltas: dict[int, int], **options: Any) -> Any:
        return real(round_id, {user: -delta for user, delta in deltas.items()}, **options)

    monkeypatch.setattr(ledger_services, "settle_round", swapped)
    round_ = play_round(players, table)
    monkeypatch.setattr(ledger_services, "settle_round", real)
    assert any(p.xu for p in round_.players.all()), "a drawn round cannot be corrupted"
    return round_
