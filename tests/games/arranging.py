"""A simple legal-looking arranger for scripted players: strongest chi 1, then chi 2."""

from __future__ import annotations

from itertools import combinations

from games.rules import eval5, format_cards, parse_cards


def naive_arrangement(cards: list[str]) -> list[list[str]]:
    hand = parse_cards(cards)
    chi1 = max(combinations(hand, 5), key=eval5)
    rest = [c for c in hand if c not in chi1]
    chi2 = max(combinations(rest, 5), key=eval5)
    chi3 = [c for c in rest if c not in chi2]
    return [format_cards(chi1), format_cards(chi2), format_cards(chi3)]
