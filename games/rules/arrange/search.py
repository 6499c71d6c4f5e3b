"""The search: every five-card and three-card subset of a hand evaluated once, as 13-bit
masks, and chi-1 candidates visited in order of an upper bound on the whole arrangement's
value, stopping as soon as no remaining candidate can beat what was found; and the legal
arrangements that show an instant win."""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import accumulate, combinations

from games.rules.arrange.odds import _Field, _Record
from games.rules.cards import Card
from games.rules.hands import CATEGORY_SHIFT, Category, eval3, evaluator5
from games.rules.instant import ARRANGEMENT_KINDS, InstantWin, find_instant
from games.rules.presets import Rules

Chi = tuple[Card, ...]
Arrangement = tuple[Chi, Chi, Chi]
_FULL = (1 << 13) - 1
_FIVES = tuple(
    (sum(1 << i for i in idx), idx) for idx in combinations(range(13), 5)
)  # 1,287 chi-1/chi-2 candidates
_THREES = tuple(
    (sum(1 << i for i in idx), idx) for idx in combinations(range(13), 3)
)  # 286 chi-3 candidates
_SPLITS: dict[int, tuple[tuple[int, int], ...]] = {}


def _splits(rest: int) -> tuple[tuple[int, int], ...]:
    """The 56 (chi 2, chi 3) mask pairs that split an 8-card mask 5 + 3 (cached)."""
    pairs = _SPLITS.get(rest)
    if pairs is None:
        bits = [1 << i for i in range(13) if rest >> i & 1]
        pairs = tuple((rest ^ (a | b | c), a | b | c) for a, b, c in combinations(bits, 3))
        _SPLITS[rest] = pairs
    return pairs


class _Hand:
    """Every five-card and three-card subset of 13 cards, evaluated once, by 13-bit mask."""

    def __init__(self, cards: Sequence[Card], preset: str) -> None:
        ev5 = evaluator5(preset)
        self.cards = cards
        self.v5 = [0] * (1 << 13)
        self.v3 = [0] * (1 << 13)
        for mask, (a, b, c, d, e) in _FIVES:
            self.v5[mask] = ev5((cards[a], cards[b], cards[c], cards[d], cards[e]))
        for mask, (a, b, c) in _THREES:
            self.v3[mask] = eval3((cards[a], cards[b], cards[c]))

    def chi(self, mask: int) -> Chi:
        """The cards of a mask, strongest rank first."""
        picked = [self.cards[i] for i in range(13) if mask >> i & 1]
        return tuple(sorted(picked, reverse=True))


_Candidate = tuple[float, int, int, int]  # (value per opponent, chi-1, chi-2, chi-3 masks)


def _prefix_max(values: Iterable[float]) -> list[float]:
    return list(accumulate(values, max))


class _Search:
    """The per-hand figures of every subset, and a bound-ordered list of chi-1 candidates."""

    def __init__(self, hand: _Hand, field: _Field) -> None:
        self.hand = hand
        self.field = field
        v5, v3 = hand.v5, hand.v3
        odds1, odds2, odds3 = field.chi
        rec1 = odds1.records(v5[m] for m, _ in _FIVES)
        # Chi-2 and chi-3 figures as flat lists indexed by mask: the inner loop's hot reads.
        size = 1 << 13
        s2, w2, l2, lc2, b2 = ([0.0] * size for _ in range(5))
        s3, w3, l3, lc3, b3 = ([0.0] * size for _ in range(5))
        for (m, _), r in zip(_FIVES, odds2.records(v5[m] for m, _ in _FIVES), strict=True):
            s2[m], w2[m], l2[m], lc2[m], b2[m] = r
        for (m, _), r in zip(_THREES, odds3.records(v3[m] for m, _ in _THREES), strict=True):
            s3[m], w3[m], l3[m], lc3[m], b3[m] = r

        # Upper bounds on chi 2 and chi 3 given chi 1's value: chi 3 <= chi 2 <= chi 1.
        by5 = sorted((m for m, _ in _FIVES), key=v5.__getitem__)
        vals5 = [v5[m] for m in by5]
        max_s2 = _prefix_max(s2[m] for m in by5)
        max_w2 = _prefix_max(w2[m] for m in by5)
        max_b2 = _prefix_max(b2[m] for m in by5)
        by3 = sorted((m for m, _ in _THREES), key=v3.__getitem__)
        vals3 = [v3[m] for m in by3]
        max_s3 = _prefix_max(s3[m] for m in by3)
        max_w3 = _prefix_max(w3[m] for m in by3)
        max_b3 = _prefix_max(b3[m] for m in by3)
        gain = field.gain_factor

        # Cards of a suit held fewer than 5 times can never be in a flush, so such cards of
        # equal rank are interchangeable: chi-1 candidates that differ only by swapping them
        # lead to the same results, and only one of them is searched.
        suits = [c & 3 for c in hand.cards]
        token = [
            1 << (40 + i) if suits.count(suits[i]) >= 5 else 5 ** (c >> 2)
            for i, c in enumerate(hand.cards)
        ]
        seen: set[int] = set()
        order: list[tuple[float, float, int, _Record]] = []
        for (mask, (i1, i2, i3, i4, i5)), r1 in zip(_FIVES, rec1, strict=True):
            shape = token[i1] + token[i2] + token[i3] + token[i4] + token[i5]
            if shape in seen:
                continue
            seen.add(shape)
            va = v5[mask]
            j = bisect_right(vals3, va) - 1
            if j < 0:
                continue  # no chi 3 is weak enough
            i = bisect_right(vals5, va) - 1
            scoop_bound = r1[1] * max_w2[i] * max_w3[j] * (r1[4] + max_b2[i] + max_b3[j]) * gain
            bound = r1[0] + max_s2[i] + max_s3[j] + scoop_bound
            order.append((bound, scoop_bound, mask, r1))
        order.sort(key=lambda o: o[0], reverse=True)

        self.order = order
        self.figures = (s2, w2, l2, lc2, b2, s3, w3, l3, lc3, b3)

    def run(self, keep: int, key: Callable[[int, int, int], Hashable]) -> list[_Candidate]:
        """The best legal arrangement of each of the ``keep`` best distinct ``key`` classes."""
        field = self.field
        v5, v3 = self.hand.v5, self.hand.v3
        s2, w2, l2, lc2, b2, s3, w3, l3, lc3, b3 = self.figures
        gain = field.gain_factor
        all_applies, others = field.all_applies, field.others
        extra_one, extra_all = field.extra_one, field.extra_all
        best: dict[Hashable, _Candidate] = {}
        threshold = float("-inf")
        for bound, scoop_bound, a, (base, w1, l1, lc1, b1) in self.order:
            if bound <= threshold:
                break
            va = v5[a]
            for b, c in _splits(_FULL ^ a):
                vb = v5[b]
                if vb > va:
                    continue
                vc = v3[c]
                if vc > vb:
                    continue
                # Field.value inlined (same operations, same order, so the same float).
                ev = base + s2[b] + s3[c]
                if ev + scoop_bound <= threshold:
                    continue
                ev = ev + w1 * w2[b] * w3[c] * (b1 + b2[b] + b3[c]) * gain
                if ev <= threshold:
                    continue
                lose = l1 * l2[b] * l3[c]
                if all_applies:
                    rest = lose**others
                    factor = rest * extra_all + (1 - rest) * extra_one
                else:
                    factor = extra_one
                ev = ev - lose * (lc1 + lc2[b] + lc3[c]) * factor
                if ev <= threshold:
                    continue
                k = key(va, vb, vc)
                held = best.get(k)
                if held is None or ev > held[0]:
                    best[k] = (ev, a, b, c)
                    if len(best) >= keep:
                        threshold = heapq.nlargest(keep, (h[0] for h in best.values()))[-1]
        return heapq.nlargest(keep, best.values())


def _by_categories(v1: int, v2: int, v3: int) -> Hashable:
    return (v1 >> CATEGORY_SHIFT, v2 >> CATEGORY_SHIFT, v3 >> CATEGORY_SHIFT)


def _by_values(v1: int, v2: int, v3: int) -> Hashable:
    return (v1, v2, v3)


def _instant_arrangement(hand: _Hand, rules: Rules) -> tuple[InstantWin, _Candidate] | None:
    """The legal arrangement showing the strongest arrangement-dependent instant win, if any.

    Only chi 1 and chi 2 that are both flushes or both straights can show one; the kind and
    its tie-break come from ``instant.find_instant`` (which also prefers a stronger
    arrangement-free kind of the same hand, if enabled).
    """
    # Only kinds enabled and stronger than the hand's arrangement-free kind (if any) can
    # change anything; often there is none and the search is skipped.
    free = find_instant(hand.cards, rules)
    kinds = list(rules.instant)
    stronger = kinds[: kinds.index(free.kind)] if free is not None else kinds
    if not any(k in ARRANGEMENT_KINDS and rules.instant_payout(k) > 0 for k in stronger):
        return None
    v5, v3 = hand.v5, hand.v3
    flushes, straights = [], []
    for mask, _ in _FIVES:
        category = v5[mask] >> CATEGORY_SHIFT
        if category in (Category.FLUSH, Category.STRAIGHT_FLUSH):
            flushes.append(mask)
        if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
            straights.append(mask)
    suits = [c & 3 for c in hand.cards]
    best: tuple[InstantWin, _Candidate] | None = None
    for group, suited in ((flushes, True), (straights, False)):
        members = set(group)
        for a in group:
            for b, c in _splits(_FULL ^ a):
                if b not in members or v5[b] > v5[a] or v3[c] > v5[b]:
                    continue
                if suited and len({suits[i] for i in range(13) if c >> i & 1}) != 1:
                    continue
                chi = (hand.chi(a), hand.chi(b), hand.chi(c))
                win = find_instant(hand.cards, rules, chi)
                if win is None or win.kind not in ARRANGEMENT_KINDS:
                    continue
                if best is None or win.compare(best[0]) > 0:
                    best = (win, (0.0, a, b, c))
    return best
