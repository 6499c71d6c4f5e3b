"""Instant wins, *mậu binh tới trắng* (docs/rules.md#instant).

Arrangement-free kinds are read from the 13 dealt cards; the *arr.* kinds need a submitted
arrangement that shows them and is not binh lủng. The order of ``rules.instant`` is the
strength order of the kinds (strongest first) and a payout of 0 disables a kind, so a hand
that qualifies for several kinds takes the strongest enabled one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.rules.cards import Card
from games.rules.hands import eval3, evaluator5, straight_top
from games.rules.presets import Rules

ARRANGEMENT_KINDS = frozenset({"three_flushes", "three_straights", "three_straight_flushes"})
"""Kinds that only count when the submitted, non-foul arrangement shows them."""

INSTANT_NAMES: dict[str, tuple[str, str]] = {
    "dragon_flush": ("Rồng cuốn", "Dragon flush"),
    "dragon": ("Sảnh rồng", "Dragon"),
    "three_straight_flushes": ("Ba thùng phá sảnh", "Three straight flushes"),
    "all_one_color": ("Đồng màu 1", "Thirteen of one color"),
    "twelve_one_color": ("Đồng màu 2", "Twelve of one color"),
    "five_pairs_trips": ("Năm đôi một sám", "Five pairs and three of a kind"),
    "six_pairs": ("Lục phé bôn", "Six pairs"),
    "four_trips": ("Bốn sám chi", "Four threes of a kind"),
    "three_quads": ("Ba tứ quý", "Three fours of a kind"),
    "three_flushes": ("Ba thùng", "Three flushes"),
    "three_straights": ("Ba sảnh", "Three straights"),
}

Tiebreak = tuple[int, ...]
Chi = Sequence[Sequence[Card]]


@dataclass(frozen=True)
class InstantWin:
    """A player's instant win: its kind, payout and what breaks a tie with the same kind."""

    kind: str
    payout: int
    strength: int
    """Higher is a stronger kind (the reverse of its place in ``rules.instant``)."""
    tiebreak: Tiebreak

    @property
    def name_vi(self) -> str:
        return INSTANT_NAMES[self.kind][0]

    @property
    def name_en(self) -> str:
        return INSTANT_NAMES[self.kind][1]

    def compare(self, other: InstantWin) -> int:
        """1 if this beats ``other``, -1 if it loses, 0 for a tie (same kind, equal tie-break)."""
        mine, theirs = (self.strength, self.tiebreak), (other.strength, other.tiebreak)
        return (mine > theirs) - (mine < theirs)


def find_instant(cards: Sequence[Card], rules: Rules, chi: Chi | None = None) -> InstantWin | None:
    """The strongest enabled instant win of a 13-card hand, or None.

    ``chi`` is the submitted arrangement (None for a player who submitted none); the
    arrangement kinds are only looked for in it, and only when it is not foul.
    """
    ranks = [c >> 2 for c in cards]
    counts = Counter(ranks)
    shown = _arrangement_ok(chi, rules)
    kinds = list(rules.instant.items())
    for place, (kind, payout) in enumerate(kinds):
        if payout <= 0:
            continue
        if kind in ARRANGEMENT_KINDS:
            if shown is None:
                continue
            tiebreak = _ARRANGED[kind](shown)
        else:
            tiebreak = _FREE[kind](cards, counts, rules.quads_split)
        if tiebreak is not None:
            return InstantWin(kind, payout, len(kinds) - place, tiebreak)
    return None


def _arrangement_ok(
    chi: Chi | None, rules: Rules
) -> tuple[list[Card], list[Card], list[Card]] | None:
    if chi is None:
        return None
    c1, c2, c3 = (list(c) for c in chi)
    ev5 = evaluator5(rules)
    v2 = ev5(c2)
    if v2 > ev5(c1) or eval3(c3) > v2:
        return None  # binh lủng shows no instant win
    return c1, c2, c3


# --- arrangement-free kinds: each returns the tie-break, or None if the hand does not qualify


def _dragon_flush(
    cards: Sequence[Card], counts: Counter[int], quads_split: bool
) -> Tiebreak | None:
    return () if len(counts) == 13 and len({c & 3 for c in cards}) == 1 else None


def _dragon(cards: Sequence[Card], counts: Counter[int], quads_split: bool) -> Tiebreak | None:
    return () if len(counts) == 13 else None


def _five_pairs_trips(
    cards: Sequence[Card], counts: Counter[int], quads_split: bool
) -> Tiebreak | None:
    # 13 = 3 + 5 x 2 leaves no single card: one rank of 3, every other rank a pair (or, when
    # quads split, two pairs).
    trips = [r for r, n in counts.items() if n == 3]
    evens = (2, 4) if quads_split else (2,)
    if len(trips) == 1 and all(n in evens for r, n in counts.items() if n != 3):
        return (trips[0],)
    return None


def _six_pairs(cards: Sequence[Card], counts: Counter[int], quads_split: bool) -> Tiebreak | None:
    # Trips hold a pair and the odd card; quads hold two pairs only when quads split.
    pairs: list[int] = []
    for rank, n in counts.items():
        if n == 4 and not quads_split:
            continue
        pairs.extend([rank] * (n // 2))
    if len(pairs) != 6:
        return None
    odd = [r for r, n in counts.items() if n % 2 == 1]
    return (*sorted(pairs, reverse=True), *odd)


def _four_trips(cards: Sequence[Card], counts: Counter[int], quads_split: bool) -> Tiebreak | None:
    trips = [r for r, n in counts.items() if n == 3 or (n == 4 and quads_split)]
    return (max(trips),) if len(trips) == 4 else None


def _three_quads(cards: Sequence[Card], counts: Counter[int], quads_split: bool) -> Tiebreak | None:
    quads = [r for r, n in counts.items() if n == 4]
    return (max(quads),) if len(quads) == 3 else None


def _color_count(cards: Sequence[Card]) -> int:
    """How many cards share the more common color."""
    red = sum(1 for c in cards if c & 3 >= 2)
    return max(red, len(cards) - red)


def _all_one_color(
    cards: Sequence[Card], counts: Counter[int], quads_split: bool
) -> Tiebreak | None:
    return () if _color_count(cards) == 13 else None


def _twelve_one_color(
    cards: Sequence[Card], counts: Counter[int], quads_split: bool
) -> Tiebreak | None:
    return () if _color_count(cards) == 12 else None


_FREE: dict[str, Callable[[Sequence[Card], Counter[int], bool], Tiebreak | None]] = {
    "dragon_flush": _dragon_flush,
    "dragon": _dragon,
    "five_pairs_trips": _five_pairs_trips,
    "six_pairs": _six_pairs,
    "four_trips": _four_trips,
    "three_quads": _three_quads,
    "all_one_color": _all_one_color,
    "twelve_one_color": _twelve_one_color,
}


# --- arrangement kinds


def _ranks_desc(chi: Sequence[Card]) -> list[int]:
    return sorted((c >> 2 for c in chi), reverse=True)


def _is_flush(chi: Sequence[Card]) -> bool:
    return len({c & 3 for c in chi}) == 1


def _straight_top3(chi: Sequence[Card]) -> int | None:
    """Top rank of a three-card straight, A-2-3 (top 3) lowest … Q-K-A highest; no wrap."""
    ranks = _ranks_desc(chi)
    if ranks == [12, 1, 0]:
        return 1
    if len(set(ranks)) == 3 and ranks[0] - ranks[2] == 2:
        return ranks[0]
    return None


def _tops(shown: Sequence[Sequence[Card]]) -> tuple[int, int, int] | None:
    top1, top2 = straight_top(_ranks_desc(shown[0])), straight_top(_ranks_desc(shown[1]))
    top3 = _straight_top3(shown[2])
    if top1 is None or top2 is None or top3 is None:
        return None
    return top1, top2, top3


def _three_flushes(shown: Sequence[Sequence[Card]]) -> Tiebreak | None:
    if not all(_is_flush(chi) for chi in shown):
        return None
    return tuple(r for chi in shown for r in _ranks_desc(chi))


def _three_straights(shown: Sequence[Sequence[Card]]) -> Tiebreak | None:
    return _tops(shown)


def _three_straight_flushes(shown: Sequence[Sequence[Card]]) -> Tiebreak | None:
    # Classic only: straight flushes rank by top card with the wheel lowest, as straights do.
    if not all(_is_flush(chi) for chi in shown):
        return None
    return _tops(shown)


_ARRANGED: dict[str, Callable[[Sequence[Sequence[Card]]], Tiebreak | None]] = {
    "three_flushes": _three_flushes,
    "three_straights": _three_straights,
    "three_straight_flushes": _three_straight_flushes,
}
