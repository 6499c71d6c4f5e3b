"""Cards and hand names in templates, named in the page's language."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import ngettext, pgettext

from games.models import Round, StakesIn
from games.rules import card_name_en, card_name_vi, parse_card
from games.rules.cards import SUIT_SYMBOLS, SUITS
from games.rules.instant import INSTANT_NAMES
from games.rules.presets import BONUS_NAMES
from games.selectors import history
from games.stakes import per_unit
from ledger.formats import format_signed_xu

register = template.Library()


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
    if not key or key not in BONUS_NAMES:
        return ""
    vi, en = BONUS_NAMES[key]
    return en if _english() else vi


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
def units(value: Any) -> str:
    """A signed number of units with the right plural: "+1 unit", "−3 units", "0 units"."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return ""
    return ngettext("%(units)s unit", "%(units)s units", abs(number)) % {
        "units": format_signed_xu(number)
    }


@register.filter
def unit_name(stakes_in: str | None) -> str:
    """What a round's amounts count, from its table's ``stakes_in`` (games.stakes)."""
    if stakes_in == StakesIn.CHIPS:
        return pgettext("amounts of a round", "chips")
    if stakes_in == StakesIn.POINTS:
        return pgettext("amounts of a round", "points")
    return "xu"


@register.filter
def counted(value: Any, round_: Round) -> Any:
    """A round's settled ``xu`` amount as shown, in what the round was played for (a points
    round's are units: games.stakes.per_unit); None stays None."""
    if value is None:
        return None
    return int(value) // per_unit(round_.table.stakes_in, round_.stake)


@register.filter
def signed_xu(value: Any) -> str:
    """Xu with a sign and the language's grouping: +1.000, −200, 0."""
    return format_signed_xu(value)


@register.filter
def rating_change(player: Any) -> dict[str, int] | None:
    """A RoundPlayer's rating before and after its round, and the change; None if unrated."""
    return history.rating_change(player.round, player.user_id)


@register.filter
def percent(value: Any) -> str:
    """A share in 0..1 as a whole percentage: 0.625 -> "63%"; "" for None."""
    try:
        return f"{round(float(value) * 100)}%"
    except (TypeError, ValueError):
        return ""


@register.filter
def true_minus(value: object) -> str:
    """A figure's minus as the true minus sign (U+2212), as ``|signed_xu`` writes amounts:
    ``{{ score|floatformat:2|true_minus }}`` shows "−1,50", never "-1,50"."""
    text = str(value)
    return "−" + text[1:] if text.startswith("-") else text
