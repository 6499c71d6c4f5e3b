"""The wallet in the page header: balance and, when unclaimed today, the daily bonus button."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import translation

from ledger import selectors

register = template.Library()


@register.inclusion_tag("ledger/wallet.html", takes_context=True)
def wallet(context: dict[str, Any]) -> dict[str, Any]:
    request = context["request"]
    user = request.user
    return {
        "balance": selectors.balance(user),
        "bonus_claimed": selectors.daily_bonus_claimed(user),
        "next": request.get_full_path(),
        "csrf_token": context.get("csrf_token"),
    }


def _grouped(value: int) -> str:
    text = f"{abs(value):,}"
    if translation.get_language() == "vi":
        text = text.replace(",", ".")  # 10.000 in Vietnamese, 10,000 in English
    return text


@register.filter
def xu(value: Any) -> str:
    """A whole number of xu with the language's thousands separator."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return ""
    return ("−" if number < 0 else "") + _grouped(number)


@register.filter
def signed_xu(value: Any) -> str:
    """Like ``xu`` but always signed: +1.000, −200, 0."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return ""
    sign = "+" if number > 0 else "−" if number < 0 else ""
    return sign + _grouped(number)
