from __future__ import annotations

from typing import Any

import pytest

from ledger import selectors, services
from ledger.errors import (
    InsufficientFunds,
    InvalidAmount,
    NeedsSecondAdmin,
    ReasonRequired,
    StaffOnly,
)


def test_staff_can_add_xu_with_a_reason(player: Any, staff: Any) -> None:
    transfer = services.adjust_balance(player, 500, reason="Compensation for outage", actor=staff)
    assert transfer.actor == staff
    assert transfer.reason == "Compensation for outage"
    assert selectors.balance(player) == 10_500


def test_a_negative_adjustment_takes_xu_back(player: Any, staff: Any) -> None:
    services.adjust_balance(player, -2_000, reason="Duplicate grant", actor=staff)
    assert selectors.balance(player) == 8_000
    assert selectors.circulation() == 8_000 + 10_000  # staff's own grant counts too


def test_a_negative_adjustment_cannot_overdraw(player: Any, staff: Any) -> None:
    with pytest.raises(InsufficientFunds):
        services.adjust_balance(player, -10_001, reason="Too much", actor=staff)
    assert selectors.balance(player) == 10_000


def test_an_adjustment_needs_a_reason(player: Any, staff: Any) -> None:
    with pytest.raises(ReasonRequired):
        services.adjust_balance(player, 5, reason="  ", actor=staff)


def test_only_staff_can_adjust(player: Any, other_player: Any) -> None:
    with pytest.raises(StaffOnly):
        services.adjust_balance(player, 5, reason="friend", actor=other_player)


def test_an_adjustment_of_zero_is_refused(player: Any, staff: Any) -> None:
    with pytest.raises(InvalidAmount):
        services.adjust_balance(player, 0, reason="nothing", actor=staff)


def test_repeating_an_adjustment_key_posts_once(player: Any, staff: Any) -> None:
    first = services.adjust_balance(player, 5, reason="r", actor=staff, key="ticket-1")
    again = services.adjust_balance(player, 5, reason="r", actor=staff, key="ticket-1")
    assert again.pk == first.pk
    assert selectors.balance(player) == 10_005


def test_one_admin_alone_cannot_mint_more_than_the_solo_limit_in_a_day(
    player: Any, staff: Any, settings: Any
) -> None:
    settings.MODERATION_ADMIN_SOLO_LIMIT_XU = 1_000
    services.adjust_balance(player, 600, reason="Outage", actor=staff)
    with pytest.raises(NeedsSecondAdmin):
        services.adjust_balance(player, 500, reason="Outage, again", actor=staff)
    with pytest.raises(NeedsSecondAdmin):
        services.adjust_balance(player, 1_000_000, reason="Alone", actor=staff)
    assert selectors.balance(player) == 10_600
    services.adjust_balance(player, -500, reason="Taking back is not a payment", actor=staff)
    services.adjust_balance(player, 400, reason="Up to the limit", actor=staff)
    assert selectors.balance(player) == 10_500
