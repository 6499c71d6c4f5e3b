"""Hand strength: one integer scale for five-card and three-card chi.

The orders are those of docs/rules.md#five-card and #three-card.

A hand's *value* is ``category << 20`` plus up to five 4-bit tie-break ranks, most significant
first. Greater value = stronger hand, equal value = tie (suits never decide). A three-card
value puts its tie-break ranks in the same leading positions and leaves the rest zero, so
comparing it with a five-card value is exactly the section-4 foul test: the shorter list is
compared position by position and equal there is "not stronger" (a five-card hand of the same
category always has a non-zero rank in a position the three-card hand leaves empty).

Fast evaluation in a loop (e.g. all 1,287 five-card subsets of 13 cards)::

    ev5 = evaluator5(rules)          # resolve the preset once, outside the loop
    for five in itertools.combinations(cards, 5):
        value = ev5(five)            # a tuple/list of 5 card ints; no validation, ~0.2 µs

``eval5(cards, preset)`` does the same but resolves the preset on every call.
``eval3`` needs no preset (three-card chi rank the same in both presets). Neither validates
its input: pass exactly 5 (or 3) distinct card ints 0..51. ``category_of(value)`` gives the
category of any value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from enum import IntEnum
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING, Union

from games.rules.cards import Card
from games.rules.errors import RulesConfigError

if TYPE_CHECKING:
    from games.rules.presets import Rules

CATEGORY_SHIFT = 20

PresetLike = Union[str, "Rules"]
Eval5 = Callable[[Sequence[Card]], int]


class Category(IntEnum):
    """A hand category, weakest first; the value is the category's place on the scale."""

    HIGH_CARD = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    FOUR_ACES = 10
    """Portal only; in classic four aces are an ordinary four of a kind."""

    @property
    def key(self) -> str:
        """The stable key used in JSON and in docs/rules.md (``"straight_flush"``)."""
        return self.name.lower()

    @property
    def name_vi(self) -> str:
        return _NAMES_VI[self]

    @property
    def name_en(self) -> str:
        return _NAMES_EN[self]


_NAMES_VI = {
    Category.HIGH_CARD: "Mậu thầu",
    Category.PAIR: "Đôi",
    Category.TWO_PAIR: "Thú",
    Category.THREE_OF_A_KIND: "Sám cô",
    Category.STRAIGHT: "Sảnh",
    Category.FLUSH: "Thùng",
    Category.FULL_HOUSE: "Cù lũ",
    Category.FOUR_OF_A_KIND: "Tứ quý",
    Category.STRAIGHT_FLUSH: "Thùng phá sảnh",
    Category.FOUR_ACES: "Tứ quý A",
}
_NAMES_EN = {
    Category.HIGH_CARD: "High card",
    Category.PAIR: "Pair",
    Category.TWO_PAIR: "Two pair",
    Category.THREE_OF_A_KIND: "Three of a kind",
    Category.STRAIGHT: "Straight",
    Category.FLUSH: "Flush",
    Category.FULL_HOUSE: "Full house",
    Category.FOUR_OF_A_KIND: "Four of a kind",
    Category.STRAIGHT_FLUSH: "Straight flush",
    Category.FOUR_ACES: "Four aces",
}

PRESET_NAMES = ("portal", "classic")

ACE = 12
WHEEL = (12, 3, 2, 1, 0)  # A-2-3-4-5, ranks high to low
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
# A product of per-rank primes identifies a multiset of ranks; indexed by card int directly.
_CARD_PRIME = tuple(_PRIMES[c >> 2] for c in range(52))


def _value(category: Category, *ranks: int) -> int:
    value = int(category) << CATEGORY_SHIFT
    shift = CATEGORY_SHIFT
    for r in ranks:
        shift -= 4
        value |= r << shift
    return value


def category_of(value: int) -> Category:
    """The category of a hand value from ``eval5`` or ``eval3``."""
    return Category(value >> CATEGORY_SHIFT)


def straight_top(ranks_desc: Sequence[int]) -> int | None:
    """Top rank of a five-card straight (the wheel A-2-3-4-5 tops at 5), else None."""
    if tuple(ranks_desc) == WHEEL:
        return 3
    if len(set(ranks_desc)) == 5 and ranks_desc[0] - ranks_desc[4] == 4:
        return ranks_desc[0]
    return None


def _rank_value5(ranks_desc: tuple[int, ...], flush: bool, preset: str) -> int:
    """Reference evaluation of five ranks (high to low), used only to build the tables."""
    top = straight_top(ranks_desc)
    if top is not None and flush:
        if preset == "portal":
            # Portal: 10-J-Q-K-A (thượng) > A-2-3-4-5 (hạ) > the others by top card.
            place = 13 if top == ACE else 12 if top == 3 else top
            return _value(Category.STRAIGHT_FLUSH, place)
        return _value(Category.STRAIGHT_FLUSH, top)
    if flush:
        return _value(Category.FLUSH, *ranks_desc)
    if top is not None:
        return _value(Category.STRAIGHT, top)
    groups = sorted(Counter(ranks_desc).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(count for _, count in groups)
    order = [rank for rank, _ in groups]
    if shape == (4, 1):
        if preset == "portal" and order[0] == ACE:
            return _value(Category.FOUR_ACES, ACE)
        return _value(Category.FOUR_OF_A_KIND, *order)
    category = {
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.THREE_OF_A_KIND,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.PAIR,
        (1, 1, 1, 1, 1): Category.HIGH_CARD,
    }[shape]
    return _value(category, *order)


def _rank_value3(ranks_desc: tuple[int, ...]) -> int:
    a, b, c = ranks_desc
    if a == c:
        return _value(Category.THREE_OF_A_KIND, a)
    if a == b:
        return _value(Category.PAIR, a, c)
    if b == c:
        return _value(Category.PAIR, b, a)
    return _value(Category.HIGH_CARD, a, b, c)


def _product(ranks: Sequence[int]) -> int:
    p = 1
    for r in ranks:
        p *= _PRIMES[r]
    return p


def _build_tables() -> dict[str, tuple[dict[int, int], dict[int, int]]]:
    """Both presets' tables. They differ only where ``_rank_value5`` asks the preset (a
    straight flush, four aces), so the portal tables are the classic ones with those few
    hands valued again: half the work of a process's start (every daphne and worker)."""
    nonflush: dict[int, int] = {}
    for asc in combinations_with_replacement(range(13), 5):
        if asc[0] != asc[4]:  # five of a kind does not exist
            nonflush[_product(asc)] = _rank_value5(asc[::-1], False, "classic")
    flush = {
        _product(asc): _rank_value5(asc[::-1], True, "classic")
        for asc in combinations(range(13), 5)
    }
    tables = {"classic": (nonflush, flush)}
    portal = dict(nonflush), dict(flush)
    for table, is_flush in ((portal[0], False), (portal[1], True)):
        for key, value in table.items():
            category = category_of(value)
            if category not in (Category.STRAIGHT_FLUSH, Category.FOUR_OF_A_KIND):
                continue
            ranks = _ranks_of(key)
            if category == Category.STRAIGHT_FLUSH or ranks.count(ACE) == 4:
                table[key] = _rank_value5(ranks, is_flush, "portal")
    tables["portal"] = portal
    return tables


def _ranks_of(product: int) -> tuple[int, ...]:
    """The ranks (high to low, repeated as often as held) whose primes make ``product``."""
    ranks = []
    for rank in range(12, -1, -1):
        while product % _PRIMES[rank] == 0:
            ranks.append(rank)
            product //= _PRIMES[rank]
    return tuple(ranks)


_TABLES = _build_tables()
_TABLE3 = {
    _product(asc): _rank_value3(asc[::-1]) for asc in combinations_with_replacement(range(13), 3)
}


def preset_name(preset: PresetLike) -> str:
    """The preset name of a name or a ``Rules`` object (raises on an unknown name)."""
    name = preset if isinstance(preset, str) else preset.name
    if name not in _TABLES:
        raise RulesConfigError(
            f"unknown preset {name!r} (known: portal, classic)", "preset_unknown"
        )
    return name


def _make_eval5(nonflush: dict[int, int], flush: dict[int, int]) -> Eval5:
    primes = _CARD_PRIME

    def eval5(cards: Sequence[Card]) -> int:
        a, b, c, d, e = cards
        key = primes[a] * primes[b] * primes[c] * primes[d] * primes[e]
        s = a & 3
        if b & 3 == s and c & 3 == s and d & 3 == s and e & 3 == s:
            return flush[key]
        return nonflush[key]

    return eval5


_EVAL5 = {name: _make_eval5(*tables) for name, tables in _TABLES.items()}


def evaluator5(preset: PresetLike) -> Eval5:
    """The five-card evaluator of a preset: resolve once, call in the loop."""
    return _EVAL5[preset_name(preset)]


def eval5(cards: Sequence[Card], preset: PresetLike = "portal") -> int:
    """The value of a five-card chi under ``preset`` (a name or a ``Rules``)."""
    return _EVAL5[preset_name(preset)](cards)


def eval3(cards: Sequence[Card]) -> int:
    """The value of a three-card chi: only trips > pair > high card count (section 4)."""
    a, b, c = cards
    primes = _CARD_PRIME
    return _TABLE3[primes[a] * primes[b] * primes[c]]


def is_foul(
    chi1: Sequence[Card],
    chi2: Sequence[Card],
    chi3: Sequence[Card],
    preset: PresetLike = "portal",
) -> bool:
    """True if a later chi is strictly stronger than an earlier one (binh lủng)."""
    ev5 = evaluator5(preset)
    v2 = ev5(chi2)
    return v2 > ev5(chi1) or eval3(chi3) > v2
