"""Cards and hand names in templates, named in the page's language."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import translation
from django.utils.html import format_html, format_html_join

from games.rules import card_name_en, card_name_vi, parse_card
from games.rules.cards import SUIT_SYMBOLS, SUITS
from games.rules.instant import INSTANT_NAMES
from ledger.templatetags.ledger_tags import xu

register = template.Library()
BONUS_NAMES = {
    "trips_chi3": "Sám chi cuối",
    "full_house_chi2": "Cù lũ chi giữa",
    "quads_chi1": "Tứ quý chi đầu",
    "quads_chi2": "Tứ quý chi giữa",
    "straight_flush_chi1": "Thùng phá sảnh chi đầu",
    "straight_flush_chi2": "Thùng phá sảnh chi giữa",
}


def _english() -> bool:
    return translation.get_language() == "en"


@register.simple_tag
def card(code: str, size: str = "xs") -> str:
    """A card picture with its accessible name (``Át bích`` / ``Ace of spades``)."""
    parsed = parse_card(code)
    name = card_name_en(parsed) if _english() else card_name_vi(parsed)
    rank = "10" if code[0] == "T" else code[0]
    suit = code[-1].upper()
    symbol = SUIT_SYMBOLS[SUITS.index(suit)]
    return format_html(
        '<span class="pcard pcard-{}" data-suit="{}" role="img" aria-label="{}">'
        '<span class="pcard-corner" data-r="{}" data-s="{}"></span>'
        '<span class="pcard-pip" data-s="{}"></span></span>',
        size,
        suit,
        name,
        rank,
        symbol,
        symbol,
    )


@register.simple_tag
def cards(codes: list[str], size: str = "xs") -> str:
    return format_html(
        '<span class="mini-cards wrap">{}</span>',
        format_html_join("", "{}", ((card(c, size),) for c in codes or [])),
    )


@register.filter
def hand_name(hand: dict[str, Any] | None) -> str:
    if not hand:
        return ""
    return str(hand.get("name_en") if _english() else hand.get("name_vi"))


@register.filter
def instant_name(kind: str | None) -> str:
    if not kind or kind not in INSTANT_NAMES:
        return ""
    vi, en = INSTANT_NAMES[kind]
    return en if _english() else vi


@register.filter
def bonus_name(key: str | None) -> str:
    return BONUS_NAMES.get(key or "", "")


@register.filter
def index(sequence: Any, i: int) -> Any:
    try:
        return sequence[i]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def get(mapping: Any, key: Any) -> Any:
    try:
        return mapping.get(key) if hasattr(mapping, "get") else None
    except TypeError:
        return None


@register.filter
def absolute(value: Any) -> Any:
    try:
        return abs(int(value))
    except (TypeError, ValueError):
        return value


@register.filter
def signed_xu(value: Any) -> str:
    """Xu with a sign and the language's grouping: +1.000, −200, 0."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return ""
    sign = "+" if number > 0 else "−" if number < 0 else ""
    return sign + xu(abs(number))
