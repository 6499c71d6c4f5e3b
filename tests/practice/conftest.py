"""Daily deals on fixed seeds, and the clock pinned to a chosen day."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from games.rules import Rules, parse_cards, suggest
from practice import services
from practice.models import DailyDeal

DAY = date(2026, 11, 30)
SEED = "5e" * 32


def seed_for(day: date) -> str:
    """A fixed, distinct seed per day."""
    return f"{day.toordinal():064x}"


@pytest.fixture
def make_deal(db: None) -> Callable[..., DailyDeal]:
    def make(day: date = DAY, seed: str | None = None) -> DailyDeal:
        deal = services.daily_deal_row(day, seed or seed_for(day))
        deal.save()
        return deal

    return make


@pytest.fixture
def on_day(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Pin ``timezone.now`` to a time of a day (Vietnam time; noon unless told)."""

    def pin(day: date, at: time = time(12)) -> None:
        moment = datetime.combine(day, at, tzinfo=ZoneInfo("Asia/Ho_Chi_Minh"))
        monkeypatch.setattr(timezone, "now", lambda: moment)

    return pin


def best_chi(deal: DailyDeal) -> list[list[str]]:
    """The engine's best arrangement of the day's hand, straight from ``suggest``."""
    from games.rules import format_cards

    best = suggest(parse_cards(deal.cards), Rules.preset(deal.preset), n=0)[0]
    return [format_cards(part) for part in best.chi]
