"""A small fixed history: settled rounds written as the games and the ledger write them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from django.utils import timezone

from games.models import Preset, Round, RoundPlayer, RoundState, Table
from games.rules import Rules, format_cards
from games.rules.cards import full_deck
from ledger import services as ledger


def chi_pair(a: int, b: int, winners: list[int | None], scoop: str | None = None) -> dict[str, Any]:
    """A pair compared chi by chi; ``winners`` are seat numbers (None: a tie)."""
    pair: dict[str, Any] = {
        "a": str(a),
        "b": str(b),
        "kind": "chi",
        "chi_detail": [
            {
                "winner": None if w is None else str(w),
                "units": 1,
                "bonus": None,
                "reason": "compare",
            }
            for w in winners
        ],
        "chi": [1 if w == a else -1 if w == b else 0 for w in winners],
        "scoop": None,
        "units": 0,
        "xu": 0,
        "capped": False,
    }
    pair["units"] = sum(pair["chi"])
    if scoop is not None:
        loser = b if all(w == a for w in winners) else a
        pair["scoop"] = {"loser": str(loser), "kind": scoop, "x": 1}
    return pair


def instant_pair(a: int, b: int, winner: int) -> dict[str, Any]:
    return {
        "a": str(a),
        "b": str(b),
        "kind": "instant",
        "chi": None,
        "scoop": None,
        "units": 0,
        "xu": 0,
        "capped": False,
        "instant": {"kind": None, "winner": str(winner)},
    }


class History:
    """Builds settled rounds: cards are not needed, the settlement and the ledger are."""

    def __init__(self, make_user: Any) -> None:
        self.make_user = make_user
        self.tables: dict[tuple[str, int, bool], Table] = {}

    def table(
        self, host: Any, *, preset: str = Preset.PORTAL, stake: int = 10, private: bool = False
    ) -> Table:
        key = (preset, stake, private)
        if key not in self.tables:
            extra = {"is_private": True} if private else {}
            self.tables[key] = Table.objects.create(
                name=f"Bàn {preset} {stake}{' riêng' if private else ''}",
                host=host,
                preset=preset,
                stake=stake,
                min_balance=stake,
                is_open=False,  # history only: not in the lobby
                **extra,
            )
        return self.tables[key]

    def round(
        self,
        users: list[Any],
        deltas: list[int],
        *,
        pairs: list[dict[str, Any]] | None = None,
        fouls: tuple[int, ...] = (),
        instants: dict[int, str] | None = None,
        at: datetime | None = None,
        preset: str = Preset.PORTAL,
        stake: int = 10,
        private: bool = False,
    ) -> Round:
        """A settled round: seat i is users[i], who nets deltas[i] xu (they sum to zero)."""
        table = self.table(users[0], preset=preset, stake=stake, private=private)
        number = Round.objects.filter(table=table).count() + 1
        instants = instants or {}
        settlement = {
            "players": [
                {
                    "id": str(i),
                    "status": "arranged",
                    "foul": i in fouls,
                    "instant": instants.get(i),
                    "instant_name": None,
                    "units": deltas[i] // stake,
                    "xu": deltas[i],
                    "chi_won": 0,
                    "chi_lost": 0,
                    "scooped": None,
                    "hands": None,
                }
                for i in range(len(users))
            ],
            "pairs": pairs or [],
            "stake": stake,
        }
        round_ = Round.objects.create(
            table=table,
            number=number,
            state=RoundState.SETTLED,
            rules_json=Rules.preset(preset).to_dict(),
            stake=stake,
            server_seed="0" * 64,
            server_seed_hash="0" * 64,
            settlement=settlement,
            settled_at=at or timezone.now(),
        )
        hold = stake * 30
        deck = format_cards(full_deck())
        for i, user in enumerate(users):
            RoundPlayer.objects.create(
                round=round_,
                user=user,
                position=i,
                cards=deck[13 * i : 13 * i + 13],  # real cards; the results above are set
                hold=hold,
                cap=hold,
                xu=deltas[i],
            )
        ledger.hold_many(round_.pk, [(u, hold) for u in users])
        ledger.settle_round(round_.pk, {u.pk: d for u, d in zip(users, deltas, strict=True)})
        return round_


@pytest.fixture
def history(make_user: Any) -> History:
    return History(make_user)


@pytest.fixture
def four(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("an", "binh", "chi", "dung")]


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    """Boards are cached: each test starts with none (the database is rolled back)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def make_bot(user: Any) -> Any:
    from accounts.models import User
    from ledger.models import Account

    User.objects.filter(pk=user.pk).update(is_bot=True)
    Account.objects.filter(user=user).update(is_bot=True)
    user.refresh_from_db()
    return user
