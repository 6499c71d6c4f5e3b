"""static/games/hands.js names hands exactly as games.rules does (docs/rules.md#five-card,
#three-card and #instant).

The module runs in Chromium; its values are compared with the Python engine's for a few
thousand random and hand-built hands under both presets.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.rules import (
    Rules,
    card_name_en,
    card_name_vi,
    eval3,
    eval5,
    is_foul,
    parse_card,
    parse_cards,
)
from games.rules.cards import RANKS, SUITS
from games.rules.instant import find_instant

DECK = [r + s for r in RANKS for s in SUITS]
SPECIAL_FIVES = [
    "AS KS QS JS TS", "AS 2S 3S 4S 5S", "9H TH JH QH KH", "AS AH AD AC KS", "2S 2H 2D 2C 3S",
    "AS 2D 3C 4H 5S", "TS JD QC KH AS", "QS KD AC 2H 3S", "KS KH KD 2C 2S", "AS KS QS JS 9S",
    "7S 7H 5D 5C 9S", "7S 7H 7D 5C 9S", "AH AD 3C 4S 6D",
]  # fmt: skip
SPECIAL_THREES = ["AS AH AD", "AS AH 2D", "2S 2H AD", "AS KH QD", "2S 3H 4D", "KS KD KH"]


def _instant_hands(rng: random.Random) -> list[list[str]]:
    """Hands built to hit (or nearly hit) each instant win."""
    hands = []
    for _ in range(40):
        ranks = rng.sample(RANKS, 7)
        pairs = [r + s for r in ranks[:6] for s in rng.sample(SUITS, 2)]
        hands.append([*pairs, ranks[6] + rng.choice(SUITS)])  # six pairs
        trips = [ranks[0] + s for s in rng.sample(SUITS, 3)]
        five = [r + s for r in ranks[1:6] for s in rng.sample(SUITS, 2)]
        hands.append(trips + five)  # five pairs and trips
        quads = [r + s for r in ranks[:3] for s in SUITS]
        hands.append([*quads, ranks[3] + "S"])  # three quads (classic)
        suit = rng.choice(SUITS)
        hands.append([r + rng.choice(SUITS) for r in RANKS])  # dragon
        hands.append([r + suit for r in RANKS])  # dragon flush
        black = [c for c in DECK if c[1] in "SC"]
        hands.append(rng.sample(black, 13))  # one colour
        red = [c for c in DECK if c[1] in "DH"]
        hands.append([*rng.sample(black, 12), rng.choice(red)])
    return hands


def _arranged_instants(rng: random.Random) -> list[list[list[str]]]:
    """Arrangements showing three flushes / three straights, and near misses."""
    out = []
    for _ in range(30):
        suits = rng.sample(SUITS, 3)
        deck = {s: rng.sample(RANKS, 5) for s in suits}
        out.append([[r + suits[0] for r in deck[suits[0]]], [r + suits[1] for r in deck[suits[1]]],
                    [r + suits[2] for r in deck[suits[2]][:3]]])  # fmt: skip
        top = rng.randrange(4, 13)
        used: set[str] = set()

        def run(top_rank: int, length: int, used: set[str] = used) -> list[str]:
            cards = []
            for i in range(length):
                rank = RANKS[top_rank - i] if top_rank - i >= 0 else "A"
                card = next(rank + s for s in rng.sample(SUITS, 4) if rank + s not in used)
                used.add(card)
                cards.append(card)
            return cards

        out.append([run(top, 5), run(rng.randrange(4, 13), 5), run(rng.randrange(2, 13), 3)])
    return out


def _cases() -> dict[str, Any]:
    rng = random.Random(20261129)
    fives = [c.split() for c in SPECIAL_FIVES] + [rng.sample(DECK, 5) for _ in range(3000)]
    threes = [c.split() for c in SPECIAL_THREES] + [rng.sample(DECK, 3) for _ in range(800)]
    arrangements = []
    for _ in range(1500):
        hand = rng.sample(DECK, 13)
        arrangements.append([hand[:5], hand[5:10], hand[10:]])
    instant_hands = [rng.sample(DECK, 13) for _ in range(300)] + _instant_hands(rng)
    arranged = _arranged_instants(rng)
    arranged = [a for a in arranged if len({c for part in a for c in part}) == 13]
    return {
        "fives": fives,
        "threes": threes,
        "arrangements": arrangements,
        "hands": instant_hands,
        "arranged": arranged,
    }


def _python(cases: dict[str, Any]) -> dict[str, Any]:
    rules = {name: Rules.preset(name) for name in ("portal", "classic")}
    out: dict[str, Any] = {}
    for preset in ("portal", "classic"):
        out[f"five_{preset}"] = [eval5(parse_cards(c), preset) for c in cases["fives"]]
        out[f"foul_{preset}"] = [
            is_foul(*(parse_cards(p) for p in a), preset) for a in cases["arrangements"]
        ]
        out[f"instant_{preset}"] = [
            getattr(find_instant(parse_cards(h), rules[preset]), "kind", None)
            for h in cases["hands"]
        ]
        out[f"arranged_{preset}"] = [
            getattr(
                find_instant(
                    parse_cards([c for p in a for c in p]),
                    rules[preset],
                    [parse_cards(p) for p in a],
                ),
                "kind",
                None,
            )
            for a in cases["arranged"]
        ]
    out["three"] = [eval3(parse_cards(c)) for c in cases["threes"]]
    return out


SCRIPT = """
async ({cases, rules}) => {
  const h = await import('/static/games/hands.js');
  const out = {three: cases.threes.map((c) => h.eval3(c))};
  for (const preset of ['portal', 'classic']) {
    out[`five_${preset}`] = cases.fives.map((c) => h.eval5(c, preset));
    out[`foul_${preset}`] = cases.arrangements.map((a) => h.isFoul(a[0], a[1], a[2], preset));
    out[`instant_${preset}`] = cases.hands.map((c) => h.findInstant(c, rules[preset]));
    out[`arranged_${preset}`] = cases.arranged.map(
      (a) => h.findInstant(a.flat(), rules[preset], a));
  }
  return out;
}
"""


@pytest.mark.browser
def test_hand_values_fouls_and_instant_wins_match_the_server_engine(pages) -> None:  # type: ignore[no-untyped-def]
    cases = _cases()
    expected = _python(cases)
    assert any(expected["instant_portal"])
    assert any(expected["arranged_portal"])
    page = pages.new()
    page.goto(pages.site.url + "/accounts/login/")
    rules = {name: Rules.preset(name).to_dict() for name in ("portal", "classic")}
    actual = page.evaluate(SCRIPT, {"cases": cases, "rules": rules})
    for key, values in expected.items():
        mismatches = [
            (i, cases_for(key, cases)[i], want, got)
            for i, (want, got) in enumerate(zip(values, actual[key], strict=True))
            if want != got
        ]
        assert not mismatches, f"{key}: {mismatches[:5]}"


def cases_for(key: str, cases: dict[str, Any]) -> list[Any]:
    if key.startswith("five"):
        return cases["fives"]
    if key == "three":
        return cases["threes"]
    if key.startswith("foul"):
        return cases["arrangements"]
    if key.startswith("instant"):
        return cases["hands"]
    return cases["arranged"]


@pytest.mark.browser
def test_card_names_match_the_engine_in_both_languages(pages) -> None:  # type: ignore[no-untyped-def]
    page = pages.new()
    page.goto(pages.site.url + "/accounts/login/")
    names = page.evaluate(
        """async (deck) => {
          const c = await import('/static/games/cards.js');
          const names = (lang) => deck.map((x) => c.cardName(x, lang));
          return {vi: names('vi'), en: names('en')};
        }""",
        DECK,
    )
    assert names["vi"] == [card_name_vi(parse_card(c)) for c in DECK]
    assert names["en"] == [card_name_en(parse_card(c)) for c in DECK]
    assert names["vi"][DECK.index("AS")] == "Át bích"
    assert names["en"][DECK.index("AS")] == "Ace of spades"
