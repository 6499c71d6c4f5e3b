"""What the table's Gợi ý, the bots and the CLI ask for: the best arrangements of 13 cards
(``suggest``), the price of a given one (``appraise``) and the naive baseline."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.rules.arrange.odds import DEFAULT_OPPONENTS, _Field, _field
from games.rules.arrange.search import (
    _FIVES,
    _FULL,
    Arrangement,
    _by_categories,
    _by_values,
    _Candidate,
    _Hand,
    _instant_arrangement,
    _Search,
    _splits,
)
from games.rules.cards import Card, format_card, parse_card
from games.rules.errors import ArrangementError, CardError
from games.rules.instant import find_instant
from games.rules.presets import Rules


@dataclass(frozen=True)
class Suggestion:
    """One legal arrangement with its estimated chances and expected units."""

    chi: Arrangement
    win: tuple[float, float, float]
    """Estimated probability of winning each chi against one opponent."""
    ev: float
    """Expected units against the field (three opponents unless asked otherwise)."""
    instant: str | None = None
    """The instant-win key this arrangement claims (section 6), or None."""
    tie: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Estimated probability of tying each chi against one opponent."""

    def to_json(self) -> dict[str, Any]:
        """The CLI form of docs/rules.md#cli: cards as ``"AS"``, probabilities rounded."""
        return {
            "chi": [[format_card(c) for c in chi] for chi in self.chi],
            "win": [round(p, 4) for p in self.win],
            "ev": round(self.ev, 4),
            "instant": self.instant,
        }


def _suggestion(hand: _Hand, field: _Field, cand: _Candidate, instant: str | None) -> Suggestion:
    ev, a, b, c = cand
    values = (hand.v5[a], hand.v5[b], hand.v3[c])
    odds = field.chi
    return Suggestion(
        chi=(hand.chi(a), hand.chi(b), hand.chi(c)),
        win=(
            odds[0].record(values[0])[1],
            odds[1].record(values[1])[1],
            odds[2].record(values[2])[1],
        ),
        ev=ev * field.opponents,
        instant=instant,
        tie=(odds[0].tie(values[0]), odds[1].tie(values[1]), odds[2].tie(values[2])),
    )


def _checked(cards: Iterable[Card]) -> tuple[Card, ...]:
    hand = tuple(cards)
    if len(hand) != 13:
        raise CardError(f"auto-arrange needs 13 cards, got {len(hand)}", "cards_count")
    for card in hand:
        if not (isinstance(card, int) and 0 <= card < 52):
            raise CardError(f"{card!r} is not a card number 0..51", "card_unknown")
    if len(set(hand)) != 13:
        raise CardError("auto-arrange got the same card twice", "card_duplicate")
    return hand


def appraise(
    chi: Sequence[Sequence[Card]], rules: Rules, opponents: int = DEFAULT_OPPONENTS
) -> Suggestion:
    """Price a given legal arrangement (e.g. the player's own) like ``suggest`` does.

    Raises ``ArrangementError`` if it is not 5 + 5 + 3 distinct cards or is a foul.
    """
    parts = [tuple(c) for c in chi]
    flat = [c for part in parts for c in part]
    if [len(p) for p in parts] != [5, 5, 3] or len(set(flat)) != 13:
        raise ArrangementError("an arrangement is 5 + 5 + 3 distinct cards", "chi_size")
    hand = _Hand(_checked(flat), rules.name)
    a, b, c = (sum(1 << i for i in range(k, k + n)) for k, n in ((0, 5), (5, 5), (10, 3)))
    if hand.v5[b] > hand.v5[a] or hand.v3[c] > hand.v5[b]:
        raise ArrangementError("the arrangement is binh lủng (a later chi is stronger)", "foul")
    field = _field(rules, opponents)
    records = (
        field.chi[0].record(hand.v5[a]),
        field.chi[1].record(hand.v5[b]),
        field.chi[2].record(hand.v3[c]),
    )
    cand = (field.value(*records), a, b, c)
    return _priced(_suggestion(hand, field, cand, _claimed(hand, rules, cand)), rules, opponents)


def best_arrangement(cards: Sequence[Card], field: _Field) -> Arrangement:
    """The arrangement with the most expected units under ``field``; no instant-win check."""
    hand = _Hand(cards, field.rules.name)
    (_, a, b, c), *_ = _Search(hand, field).run(1, _by_values)
    return hand.chi(a), hand.chi(b), hand.chi(c)


def suggest(
    cards: Iterable[Card], rules: Rules, n: int = 3, opponents: int = DEFAULT_OPPONENTS
) -> list[Suggestion]:
    """The best arrangement of 13 cards first, then up to ``n`` distinct good alternatives.

    An arrangement that shows an instant win (ba thùng, ba sảnh, ba thùng phá sảnh) comes
    first when there is one. Alternatives prefer a different category in some chi (another
    plan, not a kicker swap); when fewer plans exist they differ in some chi's strength.
    ``ev`` is expected units against ``opponents`` opponents. Never a foul.
    """
    if n < 0:
        raise ValueError(f"n is the number of alternatives, at least 0, got {n}")
    hand_cards = _checked(cards)
    field = _field(rules, opponents)
    hand = _Hand(hand_cards, rules.name)
    keep = n + 1
    search = _Search(hand, field)
    found = search.run(keep, _by_categories)
    if len(found) < keep:
        # Fewer plans than asked: fill with arrangements that differ in some chi's value.
        seen = {_values(hand, m) for m in found}
        more = search.run(keep + len(found), _by_values)
        found += [m for m in more if _values(hand, m) not in seen]
        found = sorted(found, reverse=True)[:keep]
    out = [_suggestion(hand, field, cand, _claimed(hand, rules, cand)) for cand in found]
    shown = _instant_arrangement(hand, rules)
    if shown is not None:
        win, cand = shown
        first = _suggestion(hand, field, cand, win.kind)
        out = [first, *[s for s in out if _same(s.chi) != _same(first.chi)][:n]]
    return [_priced(s, rules, opponents) for s in out]


def _values(hand: _Hand, cand: _Candidate) -> tuple[int, int, int]:
    return hand.v5[cand[1]], hand.v5[cand[2]], hand.v3[cand[3]]


def _same(chi: Arrangement) -> tuple[frozenset[Card], ...]:
    return tuple(frozenset(c) for c in chi)


def _claimed(hand: _Hand, rules: Rules, cand: _Candidate) -> str | None:
    win = find_instant(hand.cards, rules, (hand.chi(cand[1]), hand.chi(cand[2]), hand.chi(cand[3])))
    return None if win is None else win.kind


def _priced(s: Suggestion, rules: Rules, opponents: int) -> Suggestion:
    """An instant win is paid instead of the chi: quote its payout from every opponent."""
    if s.instant is None:
        return s
    return replace(s, ev=float(rules.instant_payout(s.instant) * opponents))


def naive_arrangement(cards: Sequence[Card], preset: str) -> Arrangement:
    """The strongest chi 1, then the strongest chi 2 from the rest: a baseline, never a foul.

    If the strongest chi 2 would leave a stronger chi 3 (a foul), the next strongest chi 2
    that is legal is taken, and so on (the smallest fix, keeping chi 1).
    """
    hand = _Hand(cards, preset)
    v5, v3 = hand.v5, hand.v3
    for a, _ in sorted(_FIVES, key=lambda f: v5[f[0]], reverse=True):
        va = v5[a]
        splits = sorted(_splits(_FULL ^ a), key=lambda s: v5[s[0]], reverse=True)
        for b, c in splits:
            if v5[b] <= va and v3[c] <= v5[b]:
                return hand.chi(a), hand.chi(b), hand.chi(c)
    raise AssertionError("every 13 cards have a legal arrangement")


def arrange_json(cards: Any, rules: Rules, n: int = 3) -> dict[str, Any]:
    """The section-10 ``arrange`` output for a list of 13 card strings (raises ``CardError``)."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise CardError("a hand must be a list of 13 cards like 'AS'", "cards_count")
    suggestions = suggest([parse_card(c) for c in cards], rules, n)
    return {"best": suggestions[0].to_json(), "suggestions": [s.to_json() for s in suggestions]}
