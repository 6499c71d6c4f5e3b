"""The "How to play" page, built from the rules engine's own names and tables.

Every example hand is labelled by evaluating it with ``games.rules`` (not by a string typed
here), and every payout is read from ``Rules.preset``, so the page cannot disagree with the
rules the server plays by.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from games.rules import Category, Rules, category_of, eval3, eval5, parse_cards
from games.rules.hands import PRESET_NAMES
from games.rules.instant import INSTANT_NAMES, find_instant
from games.rules.presets import BONUS_KEYS, BONUS_NAMES

# One example of each five-card category, weakest first (FOUR_ACES exists in portal only).
HAND_EXAMPLES = {
    Category.HIGH_CARD: "AS JD 8C 6H 3S",
    Category.PAIR: "9S 9D KC 7H 2S",
    Category.TWO_PAIR: "JS JD 4C 4H AS",
    Category.THREE_OF_A_KIND: "7S 7D 7C KH 2S",
    Category.STRAIGHT: "9S 8D 7C 6H 5S",
    Category.FLUSH: "KH TH 8H 5H 2H",
    Category.FULL_HOUSE: "QS QD QC 4H 4S",
    Category.FOUR_OF_A_KIND: "8S 8D 8C 8H 3S",
    Category.STRAIGHT_FLUSH: "9C 8C 7C 6C 5C",
    Category.FOUR_ACES: "AS AD AC AH 3S",
}
THREE_CARD_EXAMPLES = ("KS 9D 4C", "5S 5D QC", "JS JD JC")

# 13 cards for each instant win, with the arrangement for the kinds that need one.
INSTANT_EXAMPLES: dict[str, tuple[str, tuple[str, str, str] | None]] = {
    "dragon_flush": ("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", None),
    "dragon": ("AS KD QC JH TS 9D 8C 7H 6S 5D 4C 3H 2S", None),
    "three_straight_flushes": (
        "KC QC JC TC 9C 9H 8H 7H 6H 5H 4D 3D 2D",
        ("KC QC JC TC 9C", "9H 8H 7H 6H 5H", "4D 3D 2D"),
    ),
    "all_one_color": ("AH AD KH KD QH QD JH 9D 8H 7D 5H 4D 2H", None),
    "twelve_one_color": ("AH AD KH KD QH QD JH 9D 8H 7D 5H 4D 2S", None),
    "five_pairs_trips": ("AS AD KS KD QS QD JS JD 9S 9D 4S 4D 4C", None),
    "six_pairs": ("AS AD KS KD QS QD JS JD 9S 9D 4S 4D 2C", None),
    "four_trips": ("AS AD AC KS KD KC QS QD QC JS JD JC 2C", None),
    "three_quads": ("AS AD AC AH KS KD KC KH QS QD QC QH 2C", None),
    "three_flushes": (
        "KH TH 8H 5H 2H KC 9C 7C 4C 3C AD JD 6D",
        ("KH TH 8H 5H 2H", "KC 9C 7C 4C 3C", "AD JD 6D"),
    ),
    "three_straights": (
        "9S 8D 7C 6H 5S KD QC JH TS 9D 4C 3H 2S",
        ("KD QC JH TS 9D", "9S 8D 7C 6H 5S", "4C 3H 2S"),
    ),
}


@dataclass(frozen=True)
class Example:
    codes: list[str]
    category: Category

    @property
    def name_vi(self) -> str:
        return self.category.name_vi

    @property
    def name_en(self) -> str:
        return self.category.name_en


def hand_ranking(preset: str) -> list[Example]:
    """The five-card categories of ``preset``, strongest first, each with an example."""
    rows = []
    for codes in HAND_EXAMPLES.values():
        category = category_of(eval5(parse_cards(codes), preset))
        rows.append(Example(codes.split(), category))
    # In classic, four aces are an ordinary four of a kind: shown once.
    unique = {row.category: row for row in reversed(rows)}
    return sorted(unique.values(), key=lambda r: r.category, reverse=True)


def three_card_ranking() -> list[Example]:
    rows = [Example(c.split(), category_of(eval3(parse_cards(c)))) for c in THREE_CARD_EXAMPLES]
    return sorted(rows, key=lambda r: r.category, reverse=True)


def instant_wins(preset: str) -> list[dict[str, Any]]:
    """Each enabled instant win of ``preset``, strongest first, with its payout and an example."""
    rules = Rules.preset(preset)
    rows = []
    for kind, payout in rules.instant.items():
        if payout <= 0:
            continue
        codes, chi = INSTANT_EXAMPLES[kind]
        found = find_instant(
            parse_cards(codes), rules, [parse_cards(c) for c in chi] if chi else None
        )
        vi, en = INSTANT_NAMES[kind]
        rows.append(
            {
                "kind": kind,
                "name_vi": vi,
                "name_en": en,
                "units": payout,
                "codes": codes.split(),
                "chi": [c.split() for c in chi] if chi else None,
                # The engine's verdict on the example: the kind itself, or a stronger kind the
                # same cards also make (three fours of a kind are also six pairs).
                "counted_as": found.kind if found else None,
                "counted_as_vi": INSTANT_NAMES[found.kind][0] if found else "",
                "counted_as_en": INSTANT_NAMES[found.kind][1] if found else "",
            }
        )
    return rows


def presets() -> list[dict[str, Any]]:
    """Everything the page shows for each preset, straight from ``Rules.preset``."""
    out = []
    for name in PRESET_NAMES:
        rules = Rules.preset(name)
        out.append(
            {
                "name": name,
                "rules": rules,
                "ranking": hand_ranking(name),
                "bonus": [
                    {
                        "key": k,
                        "vi": BONUS_NAMES[k][0],
                        "en": BONUS_NAMES[k][1],
                        "units": rules.bonus[k],
                    }
                    for k in BONUS_KEYS
                ],
                "instant": instant_wins(name),
                # Measured, not stated: is the A-2-3-4-5 straight flush second only to 10-J-Q-K-A?
                "wheel_flush_second": eval5(parse_cards("5C 4C 3C 2C AC"), name)
                > eval5(parse_cards("KC QC JC TC 9C"), name),
            }
        )
    return out


SAMPLE_SEED = "7c21" * 16  # any fixed 64-hex seed: the deal is the same on every visit
SAMPLE_NAMES = ("Lan", "Hùng", "Mai")
SAMPLE_STAKE = 10


@cache
def sample_showdown() -> dict[str, Any]:
    """A real four-player round for the welcome page's table picture: a provably-fair deal
    from a fixed seed, each hand arranged by the engine (its best), settled by
    ``games.rules``: the names, chi and results are the engine's, not typed here."""
    from games.rules import format_cards
    from games.rules.arrange import suggest
    from games.rules.fair import deal_from_seeds
    from games.rules.scoring import PlayerInput, settle

    rules = Rules.preset("portal")
    hands = deal_from_seeds(SAMPLE_SEED, ["welcome"], 4)
    players = []
    for seat, cards in enumerate(hands):
        chi = [format_cards(part) for part in suggest(cards, rules, n=0)[0].chi]
        players.append(
            PlayerInput.make(str(seat), cards=format_cards(cards), chi=chi, status="arranged")
        )
    result = settle(rules, SAMPLE_STAKE, players).to_json()
    seats = []
    for row in result["players"]:
        seat = int(row["id"])
        seats.append(
            {
                "name": SAMPLE_NAMES[seat - 1] if seat else "",
                "hands": [
                    {"codes": h["cards"], "name_vi": h["name_vi"], "name_en": h["name_en"]}
                    for h in row["hands"]
                ],
                "xu": row["xu"],
            }
        )
    return {"me": seats[0], "others": seats[1:], "stake": SAMPLE_STAKE}
