"""Arrangements for scripted players: the rules engine's naive baseline, as card strings."""

from __future__ import annotations

from games.rules import format_cards, parse_cards
from games.rules.arrange import naive_arrangement as engine_naive


def naive_arrangement(cards: list[str], preset: str = "portal") -> list[list[str]]:
    """Strongest chi 1, then strongest legal chi 2, the rest chi 3 (never a foul)."""
    return [format_cards(part) for part in engine_naive(parse_cards(cards), preset)]
