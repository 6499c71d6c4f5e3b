from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from ledger import selectors, services


def wallet(request: HttpRequest) -> dict[str, Any]:
    """The header's balance and daily-bonus button (two indexed reads per page)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "wallet_balance": selectors.balance(user),
        "wallet_in_play": selectors.in_play(user),
        "daily_bonus_claimed": selectors.daily_bonus_claimed(user),
        "daily_bonus_amount": services.DAILY_BONUS_XU,
    }
