from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from ledger import selectors, services
from ledger.errors import AlreadyClaimedToday


def test_the_daily_bonus_adds_a_thousand_xu(player: Any) -> None:
    transfer = services.claim_daily_bonus(player)
    assert transfer.kind == "daily_bonus"
    assert selectors.balance(player) == 11_000
    assert selectors.daily_bonus_claimed(player)


def test_a_second_claim_the_same_day_is_refused(player: Any) -> None:
    services.claim_daily_bonus(player)
    with pytest.raises(AlreadyClaimedToday) as refused:
        services.claim_daily_bonus(player)
    assert refused.value.code == "already_claimed_today"
    assert selectors.balance(player) == 11_000


def test_the_day_turns_at_midnight_in_vietnam(player: Any) -> None:
    # 16:59 UTC is 23:59 in Hồ Chí Minh City; 17:00 UTC is already the next day there.
    services.claim_daily_bonus(player, now=datetime(2026, 3, 1, 16, 59, tzinfo=UTC))
    services.claim_daily_bonus(player, now=datetime(2026, 3, 1, 17, 0, tzinfo=UTC))
    with pytest.raises(AlreadyClaimedToday):
        services.claim_daily_bonus(player, now=datetime(2026, 3, 2, 3, 0, tzinfo=UTC))
    assert selectors.balance(player) == 12_000
