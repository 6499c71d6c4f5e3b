"""Auto-arrange (xếp bài tự động): split 13 cards into the three chi that score most.

The method follows Paul Hankin's Chinese-poker solver. A committed table (``winprob.json``,
built by ``python -m games.rules.tables.build_winprob``) holds, per preset and per chi, how
strong an opponent's arranged chi is, as counts over finely bucketed hand values. From it each
candidate chi gets, per opponent, P(win), P(tie), P(lose), the units expected from winning
(its bonus under the table's rules) and the units expected to be paid when losing (the
bonus-weighted mass of stronger opponent hands). An arrangement's expected units are the sum
over its three chi plus an approximation of the scoop multipliers (see ``_Field``), times the
number of opponents. The search evaluates each five-card and three-card subset once, as 13-bit
masks, and visits chi 1 candidates in order of an upper bound on the whole arrangement's value,
stopping as soon as no remaining candidate can beat what it has found. docs/rules.md
("Auto-arrange") describes the method, its approximations and the decisions taken.
"""

from __future__ import annotations

import heapq
import json
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from itertools import accumulate, combinations
from typing import Any

from games.rules.cards import Card, format_card, parse_card
from games.rules.errors import ArrangementError, CardError
from games.rules.hands import CATEGORY_SHIFT, Category, eval3, evaluator5
from games.rules.instant import ARRANGEMENT_KINDS, InstantWin, find_instant
from games.rules.presets import Rules
from games.rules.scoring import BONUS_BY_CHI, PlayerInput, Status, settle

Chi = tuple[Card, ...]
Buckets = tuple[tuple[int, int], ...]
Arrangement = tuple[Chi, Chi, Chi]

BUCKET_SHIFT = 8
"""A table bucket keeps a value's category and its three leading tie-break ranks."""

DEFAULT_OPPONENTS = 3
"""Expected units are quoted against a full table: three opponents."""

# Categories whose five-card values have at most three tie-break ranks, so a bucket is exact.
_EXACT5 = frozenset(
    {
        Category.TWO_PAIR,
        Category.THREE_OF_A_KIND,
        Category.STRAIGHT,
        Category.FULL_HOUSE,
        Category.FOUR_OF_A_KIND,
        Category.STRAIGHT_FLUSH,
        Category.FOUR_ACES,
    }
)

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


# --------------------------------------------------------------------------- results


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
        """The CLI form of RULES.md section 10: cards as ``"AS"``, probabilities rounded."""
        return {
            "chi": [[format_card(c) for c in chi] for chi in self.chi],
            "win": [round(p, 4) for p in self.win],
            "ev": round(self.ev, 4),
            "instant": self.instant,
        }


# --------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class WinTable:
    """How strong opponents' arranged chi are under one preset: bucket counts per chi."""

    preset: str
    hands: int
    """How many arranged hands the counts come from."""
    scoop_rate: float
    """How often an arranged hand loses all three chi to another (the simulated field)."""
    chi: tuple[Buckets, Buckets, Buckets]
    """Per chi, sorted (value >> BUCKET_SHIFT, count) pairs."""
    scale_check: Mapping[str, Sequence[int]] | None = None
    """Values of reference hands when the table was built (see ``build_winprob``)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "scoop_rate": self.scoop_rate,
            # Flat [bucket, count, bucket, count, …] keeps the committed file compact.
            "chi": [[n for pair in chi for n in pair] for chi in self.chi],
        }

    @classmethod
    def from_dict(cls, preset: str, data: Mapping[str, Any]) -> WinTable:
        flat = data["chi"]
        chi = tuple(tuple(zip(f[0::2], f[1::2], strict=True)) for f in flat)
        assert len(chi) == 3
        return cls(
            preset,
            int(data["hands"]),
            float(data["scoop_rate"]),
            (chi[0], chi[1], chi[2]),
            data.get("scale_check"),
        )


@lru_cache(maxsize=1)
def _packaged() -> Mapping[str, Any]:
    text = resources.files("games.rules.tables").joinpath("winprob.json").read_text("utf-8")
    data: Mapping[str, Any] = json.loads(text)
    return data


def packaged_table(preset: str) -> WinTable:
    """The committed win table of ``preset``."""
    return WinTable.from_dict(preset, _packaged()["presets"][preset])


def chi_bonus(rules: Rules, chi: int, category: Category) -> int:
    """Units paid for winning chi ``chi`` (0, 1, 2) with a hand of ``category`` (section 5)."""
    # Settlement's own table, so that pricing and paying can never disagree.
    key = BONUS_BY_CHI[chi].get(category)
    return rules.bonus[key] if key is not None else 1


# Per-opponent figures of one chi value: (score, P(win), P(lose), units lost | lose, bonus).
_Record = tuple[float, float, float, float, float]


class _ChiOdds:
    """Odds of one chi value against an opponent's same chi, memoised per value."""

    def __init__(self, rules: Rules, chi: int, buckets: Sequence[tuple[int, int]]) -> None:
        self._chi = chi
        self._rules = rules
        self._keys = [b for b, _ in buckets]
        self._counts = [c for _, c in buckets]
        self._bonuses = [
            chi_bonus(rules, chi, Category(b >> (CATEGORY_SHIFT - BUCKET_SHIFT)))
            for b in self._keys
        ]
        self._below = [0]
        self._paid_below = [0]
        for count, bonus in zip(self._counts, self._bonuses, strict=True):
            self._below.append(self._below[-1] + count)
            self._paid_below.append(self._paid_below[-1] + count * bonus)
        self._total = self._below[-1]
        self._memo: dict[int, _Record] = {}
        self._tie_memo: dict[int, float] = {}

    def record(self, value: int) -> _Record:
        rec = self._memo.get(value)
        if rec is None:
            rec = self._memo[value] = self._compute(value)
        return rec

    def records(self, values: Iterable[int]) -> list[_Record]:
        """``record`` of many values (the hot path: nearly all are memoised)."""
        memo = self._memo
        out = []
        for value in values:
            rec = memo.get(value)
            if rec is None:
                rec = memo[value] = self._compute(value)
            out.append(rec)
        return out

    def tie(self, value: int) -> float:
        self.record(value)
        return self._tie_memo[value]

    def _compute(self, value: int) -> _Record:
        category = Category(value >> CATEGORY_SHIFT)
        bonus = chi_bonus(self._rules, self._chi, category)
        bucket = value >> BUCKET_SHIFT
        i = bisect_left(self._keys, bucket)
        same = self._counts[i] if i < len(self._keys) and self._keys[i] == bucket else 0
        total = self._total or 1
        above_paid: float = self._paid_below[-1] - self._paid_below[i] - same * bonus
        win: float
        tie: float
        if self._chi == 2 or category in _EXACT5:
            win, tie = self._below[i], same
        else:
            # Lower tie-break ranks are not in the bucket: count half of it as beaten.
            win, tie = self._below[i] + same / 2, 0.0
            above_paid += same * bonus / 2
        p_win, p_tie = win / total, tie / total
        p_lose = max(0.0, 1.0 - p_win - p_tie)
        paid = above_paid / total
        self._tie_memo[value] = p_tie
        return (p_win * bonus - paid, p_win, p_lose, paid / p_lose if p_lose > 0 else 0.0, bonus)


class _Field:
    """The expected-units model of one Rules object against ``opponents`` opponents.

    Per opponent, chi results are treated as independent: P(scoop) = product of the three
    P(lose). Losing all three chi multiplies what is paid by ``scoop_all`` when every
    opponent scoops (their chances are independent given this hand), else by ``scoop_one``;
    when this hand scoops an opponent, the opponent's other opponents also scoop it at the
    simulated field rate ``scoop_rate``.
    """

    def __init__(self, rules: Rules, table: WinTable, opponents: int) -> None:
        self.rules = rules
        self.opponents = opponents
        self.chi = tuple(_ChiOdds(rules, k, table.chi[k]) for k in range(3))
        self.others = others = opponents - 1
        self.extra_one = extra_one = rules.scoop_one - 1
        self.extra_all = extra_all = rules.scoop_all - 1
        self.all_applies = opponents >= rules.scoop_all_min
        self.gain_factor: float
        if self.all_applies:
            rest = table.scoop_rate**others
            self.gain_factor = rest * extra_all + (1 - rest) * extra_one
        else:
            self.gain_factor = float(extra_one)

    def cost_factor(self, p_scooped: float) -> float:
        """Extra multiple paid when scooped by one opponent, given P(scooped by one)."""
        if not self.all_applies:
            return self.extra_one
        rest = p_scooped**self.others
        return rest * self.extra_all + (1 - rest) * self.extra_one

    def value(self, r1: _Record, r2: _Record, r3: _Record) -> float:
        """Expected units against one opponent of an arrangement with these chi records."""
        lose = r1[2] * r2[2] * r3[2]
        return (
            r1[0]
            + r2[0]
            + r3[0]
            + r1[1] * r2[1] * r3[1] * (r1[4] + r2[4] + r3[4]) * self.gain_factor
            - lose * (r1[3] + r2[3] + r3[3]) * self.cost_factor(lose)
        )


@lru_cache(maxsize=16)
def _field(rules: Rules, opponents: int) -> _Field:
    if not 1 <= opponents <= 3:
        raise ValueError(f"a table has 1 to 3 opponents, got {opponents}")
    return _Field(rules, packaged_table(rules.name), opponents)


def win_probability(rules: Rules, chi: int, value: int) -> tuple[float, float]:
    """Estimated (P(win), P(tie)) of a chi (0, 1, 2) of ``value`` against one opponent."""
    odds = _field(rules, DEFAULT_OPPONENTS).chi[chi]
    return odds.record(value)[1], odds.tie(value)


def field_for(rules: Rules, table: WinTable, opponents: int = DEFAULT_OPPONENTS) -> _Field:
    """A model over an explicit table (the table builder iterates with its own tables)."""
    return _Field(rules, table, opponents)


# --------------------------------------------------------------------------- the search


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


def best_in_hindsight(
    cards: Iterable[Card], opponents: Sequence[PlayerInput], rules: Rules
) -> Suggestion:
    """The legal arrangement of ``cards`` that would have scored most against ``opponents``.

    ``opponents`` are the other players of a settled round as they stood (arrangement and
    status). Scores are exact, from ``scoring.settle`` in units; ``win`` and ``tie`` are the
    shares of chi-opponents beaten and tied per chi and ``ev`` the units the arrangement
    would have won. Every legal arrangement is considered: chi results are priced exactly
    per value, scoops are bounded (winning all three chi from an opponent multiplies at most
    by max(scoop_one, scoop_all)), and only arrangements whose bound can beat the best exact
    score so far are settled.
    """
    hand_cards = _checked(cards)
    hand = _Hand(hand_cards, rules.name)
    me = "me"
    while any(p.id == me for p in opponents):
        me += "_"

    def exact(a: int, b: int, c: int) -> tuple[float, Suggestion]:
        chi = (hand.chi(a), hand.chi(b), hand.chi(c))
        result = settle(rules, 1, [PlayerInput(me, hand_cards, chi), *opponents])
        mine = result.player(me)
        won = [0, 0, 0]
        tied = [0, 0, 0]
        pairs = [p for p in result.pairs if me in (p.a, p.b) and p.kind == "chi"]
        for pair in pairs:
            assert pair.chi is not None
            for k, r in enumerate(pair.chi):
                won[k] += r.winner == me
                tied[k] += r.winner is None
        count = len(pairs) or 1
        suggestion = Suggestion(
            chi=chi,
            win=(won[0] / count, won[1] / count, won[2] / count),
            ev=float(mine.units),
            instant=None if mine.instant is None else mine.instant.kind,
            tie=(tied[0] / count, tied[1] / count, tied[2] / count),
        )
        return float(mine.units), suggestion

    # Exact units per chi value against the opponents whose chi are compared with mine.
    seats = [_Opponent(p, rules) for p in opponents]
    chi_seats = [s for s in seats if s.instant is None]
    multiplier = max(rules.scoop_one, rules.scoop_all)

    def priced(chi: int, value: int) -> tuple[float, float, tuple[int, ...]]:
        units = tuple(seat.units(rules, chi, value) for seat in chi_seats)
        total = sum(units)
        return total, total + sum(u for u in units if u > 0) * (multiplier - 1), units

    def tight(u1: tuple[int, ...], u2: tuple[int, ...], u3: tuple[int, ...]) -> float:
        """Upper bound per opponent: only an opponent who loses all 3 chi pays a multiple."""
        bound = 0
        for x, y, z in zip(u1, u2, u3, strict=True):
            bound += (x + y + z) * (multiplier if x > 0 and y > 0 and z > 0 else 1)
        return bound

    best: tuple[float, Suggestion] | None = None
    shown = _instant_arrangement(hand, rules)
    if shown is not None:
        best = exact(*shown[1][1:])
    if find_instant(hand_cards, rules) is not None:
        # An arrangement-free instant win settles every pair whatever the arrangement.
        (_, a, b, c), *_ = _Search(hand, _field(rules, len(opponents))).run(1, _by_values)
        found = exact(a, b, c)
        return found[1] if best is None or found[0] > best[0] else best[1]

    memo: list[dict[int, tuple[float, float, tuple[int, ...]]]] = [{}, {}, {}]

    def price(chi: int, value: int) -> tuple[float, float, tuple[int, ...]]:
        p = memo[chi].get(value)
        if p is None:
            p = memo[chi][value] = priced(chi, value)
        return p

    # Bound every legal arrangement loosely (separable, so cheap), settle in bound order.
    candidates: list[tuple[float, int, int, int]] = []
    for a, _ in _FIVES:
        va = hand.v5[a]
        top1 = price(0, va)[1]
        for b, c in _splits(_FULL ^ a):
            vb = hand.v5[b]
            if vb > va:
                continue
            vc = hand.v3[c]
            if vc > vb:
                continue
            candidates.append((top1 + price(1, vb)[1] + price(2, vc)[1], a, b, c))
    candidates.sort(reverse=True)
    seen: set[tuple[int, int, int]] = set()
    for bound, a, b, c in candidates:
        if best is not None and bound <= best[0]:
            break
        values = (hand.v5[a], hand.v5[b], hand.v3[c])
        if values in seen:
            continue  # same strengths, same settlement
        seen.add(values)
        if best is not None:
            units = (price(0, values[0])[2], price(1, values[1])[2], price(2, values[2])[2])
            if tight(*units) <= best[0]:
                continue
        found = exact(a, b, c)
        if best is None or found[0] > best[0]:
            best = found
    assert best is not None
    return best[1]


class _Opponent:
    """An opponent's chi as they were shown, for pricing my chi values exactly."""

    def __init__(self, player: PlayerInput, rules: Rules) -> None:
        self.player = player
        arranged = player.chi is not None and player.status is not Status.UNARRANGED
        self.instant = (
            None
            if player.left_before_showdown
            else find_instant(player.cards, rules, player.chi if arranged else None)
        )
        self.values: tuple[int, int, int] | None = None
        self.foul = True
        if arranged and player.chi is not None:
            ev5 = evaluator5(rules.name)
            c1, c2, c3 = player.chi
            self.values = (ev5(c1), ev5(c2), eval3(c3))
            self.foul = self.values[1] > self.values[0] or self.values[2] > self.values[1]

    def units(self, rules: Rules, chi: int, value: int) -> int:
        """What my (non-foul) chi ``chi`` of ``value`` wins from this opponent, signed."""
        if self.foul or self.player.forfeits(chi) or self.values is None:
            return chi_bonus(rules, chi, Category(value >> CATEGORY_SHIFT))
        theirs = self.values[chi]
        if value > theirs:
            return chi_bonus(rules, chi, Category(value >> CATEGORY_SHIFT))
        if value < theirs:
            return -chi_bonus(rules, chi, Category(theirs >> CATEGORY_SHIFT))
        return 0


def arrange_json(cards: Any, rules: Rules, n: int = 3) -> dict[str, Any]:
    """The section-10 ``arrange`` output for a list of 13 card strings (raises ``CardError``)."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise CardError("a hand must be a list of 13 cards like 'AS'", "cards_count")
    suggestions = suggest([parse_card(c) for c in cards], rules, n)
    return {"best": suggestions[0].to_json(), "suggestions": [s.to_json() for s in suggestions]}
