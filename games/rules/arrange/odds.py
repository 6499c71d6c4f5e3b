"""How strong opponents' chi are, and what an arrangement is expected to win against them.

A committed table (``winprob.json``, built by ``python -m games.rules.tables.build_winprob``)
holds, per preset and per chi, how strong an opponent's arranged chi is, as counts over
finely bucketed hand values (``WinTable``). From it each chi value gets, per opponent,
P(win), P(tie), P(lose), the units expected from winning and the units expected to be paid
when losing (``_ChiOdds``); ``_Field`` adds the scoop multipliers and prices a whole
arrangement against a table of opponents.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from games.rules.hands import CATEGORY_SHIFT, Category
from games.rules.presets import Rules
from games.rules.scoring import BONUS_BY_CHI

Buckets = tuple[tuple[int, int], ...]
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
