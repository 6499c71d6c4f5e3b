"""Five-card evaluation throughput: games.rules vs treys on the same random hands.

Run: /work/main/.venv/bin/python benchmarks/bench_eval.py [n_hands]
Prints hands/s for both and the ratio (ours / treys); also the cost of one auto-arrange
sweep (all 1,287 five-card subsets of 13 cards).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from treys import Card as TreysCard  # type: ignore[import-untyped]
from treys import Evaluator

from games.rules.cards import Card, format_card
from games.rules.hands import evaluator5


def best_rate(fn: Callable[[Any], int], hands: Sequence[Any], repeat: int = 5) -> float:
    """Hands per second of the fastest of ``repeat`` passes (least disturbed by other load)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for hand in hands:
            fn(hand)
        best = min(best, time.perf_counter() - start)
    return len(hands) / best


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    rng = random.Random(2026)
    deck = [Card(i) for i in range(52)]
    ours = [tuple(rng.sample(deck, 5)) for _ in range(n)]
    # treys wants its own card ints: convert the very same hands.
    theirs = [
        [TreysCard.new(format_card(c)[0] + format_card(c)[1].lower()) for c in h] for h in ours
    ]

    ev5 = evaluator5("portal")
    treys = Evaluator()
    ours_rate = best_rate(ev5, ours)
    five_rate = best_rate(treys._five, theirs)
    eval_rate = best_rate(lambda h: treys.evaluate(h[:2], h[2:]), theirs)
    print(f"hands: {n:,} random five-card hands (same hands for both)")
    print(f"games.rules evaluator5 : {ours_rate:12,.0f} hands/s")
    ratio_five, ratio_eval = ours_rate / five_rate, ours_rate / eval_rate
    print(f"treys Evaluator._five  : {five_rate:12,.0f} hands/s   ours/treys = {ratio_five:.2f}")
    print(f"treys Evaluator.evaluate: {eval_rate:11,.0f} hands/s   ours/treys = {ratio_eval:.2f}")

    thirteen = tuple(rng.sample(deck, 13))
    start = time.perf_counter()
    rounds = 200
    for _ in range(rounds):
        for five in combinations(thirteen, 5):
            ev5(five)
    per_sweep = (time.perf_counter() - start) / rounds
    print(f"one sweep of the 1,287 five-card subsets of 13 cards: {per_sweep * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
