"""The best arrangement in hindsight: scored exactly against the other players of a settled
round as they stood (the round page's "Best in hindsight")."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.rules.arrange.odds import _field, chi_bonus
from games.rules.arrange.search import (
    _FIVES,
    _FULL,
    _by_values,
    _Hand,
    _instant_arrangement,
    _Search,
    _splits,
)
from games.rules.arrange.suggestions import Suggestion, _checked
from games.rules.cards import Card
from games.rules.hands import CATEGORY_SHIFT, Category, eval3, evaluator5
from games.rules.instant import find_instant
from games.rules.presets import Rules
from games.rules.scoring import PlayerInput, Status, settle


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
