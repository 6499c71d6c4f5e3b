"""Reading and pricing a submitted arrangement with the engine (``suggest`` / ``appraise``).

The client sends three chi of card codes; the server checks them against the hand it dealt
and prices them exactly as the table's Gợi ý does: expected units against three opponents
(docs/rules.md#cli), with each chi's chance of winning against one opponent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.errors import Refusal
from games.rules import (
    ArrangementError,
    CardError,
    Category,
    Rules,
    Suggestion,
    appraise,
    category_of,
    eval3,
    eval5,
    format_card,
    parse_card,
    suggest,
)
from games.rules.arrange import chi_bonus
from games.rules.instant import INSTANT_NAMES

CHI_SIZES = (5, 5, 3)
MAX_INPUT_CHARS = 400
"""Three chi of 13 card codes fit in well under this; anything longer is not an arrangement."""


class Refused(Refusal):
    """A submitted arrangement the server does not accept; ``message`` is for the player.
    The code comes first, and the message is rendered already (by the raiser)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)
        self.args = (message,)


@dataclass(frozen=True)
class Priced:
    """An arrangement with the engine's price: what the result page shows."""

    chi: list[list[str]]
    ev: float
    win: list[float]
    tie: list[float]
    instant: str

    @classmethod
    def of(cls, s: Suggestion) -> Priced:
        return cls(
            chi=[[format_card(c) for c in part] for part in s.chi],
            ev=s.ev,
            win=list(s.win),
            tie=list(s.tie),
            instant=s.instant or "",
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "chi": self.chi,
            "ev": self.ev,
            "win": self.win,
            "tie": self.tie,
            "instant": self.instant,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Priced:
        return cls(
            chi=[list(part) for part in data["chi"]],
            ev=float(data["ev"]),
            win=[float(p) for p in data["win"]],
            tie=[float(p) for p in data.get("tie", (0.0, 0.0, 0.0))],
            instant=str(data.get("instant") or ""),
        )


def read_arrangement(raw: Any, hand: Sequence[str]) -> list[list[str]]:
    """The three chi a player sent (JSON text), checked against their 13 dealt cards."""
    if not isinstance(raw, str) or not raw or len(raw) > MAX_INPUT_CHARS:
        raise _malformed()
    try:
        data = json.loads(raw)
    except ValueError:
        raise _malformed() from None
    if not isinstance(data, list) or len(data) != 3 or not all(isinstance(p, list) for p in data):
        raise _malformed()
    dealt = set(hand)
    seen: set[str] = set()
    chi: list[list[str]] = []
    for part in data:
        codes = []
        for text in part:
            try:
                code = format_card(parse_card(text))
            except CardError:
                raise Refused(
                    "card_unknown", _("%(card)s is not a card.") % {"card": str(text)[:8]}
                ) from None
            if code not in dealt:
                raise Refused(
                    "not_your_card", _("%(card)s is not one of your cards.") % {"card": code}
                )
            if code in seen:
                raise Refused("card_twice", _("%(card)s is placed twice.") % {"card": code})
            seen.add(code)
            codes.append(code)
        chi.append(codes)
    if tuple(len(p) for p in chi) != CHI_SIZES:
        raise Refused(
            "chi_size",
            _("Place all 13 cards: 5 in chi 1, 5 in chi 2 and 3 in chi 3."),
        )
    return chi


def price(chi: Sequence[Sequence[str]], rules: Rules) -> Priced:
    """The engine's appraisal of a checked arrangement; refuses binh lủng."""
    try:
        return Priced.of(appraise([[parse_card(c) for c in part] for part in chi], rules))
    except ArrangementError:
        raise Refused(
            "foul",
            _(
                "Binh lủng: a later chi is stronger than an earlier one. Chi 1 must be "
                "the strongest, chi 3 the weakest."
            ),
        ) from None


def best(cards: Sequence[str], rules: Rules) -> Priced:
    """The engine's best arrangement of a hand (the first of ``suggest``)."""
    return Priced.of(suggest([parse_card(c) for c in cards], rules, n=0)[0])


def reasons(priced: Priced, rules: Rules) -> list[dict[str, Any]]:
    """Per chi: the hand's name, its chance to win and tie, and what winning it pays."""
    vietnamese = (get_language() or "vi").startswith("vi")
    out = []
    for i, part in enumerate(priced.chi):
        cards = [parse_card(c) for c in part]
        category: Category = category_of(eval5(cards, rules.name) if i < 2 else eval3(cards))
        out.append(
            {
                "chi": i + 1,
                "cards": part,
                "hand": category.name_vi if vietnamese else category.name_en,
                "win": round(100 * priced.win[i]),
                "tie": round(100 * priced.tie[i]),
                "pays": chi_bonus(rules, i, category),
            }
        )
    return out


def instant_name(key: str) -> str:
    if not key:
        return ""
    vi, en = INSTANT_NAMES[key]
    return vi if (get_language() or "vi").startswith("vi") else en


def _malformed() -> Refused:
    return Refused(
        "malformed", _("The arrangement could not be read: send three chi of card codes.")
    )
