"""Settlement cost: microseconds per settled 4-player round.

Run: /work/main/.venv/bin/python benchmarks/bench_settle.py [n_rounds]
Rounds are dealt at random and arranged naively (sorted, first 5 / next 5 / last 3), so
some are foul; validation (PlayerInput.make) is timed separately from settle().
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.cards import Card
from games.rules.presets import Rules
from games.rules.scoring import PlayerInput, settle


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000
    rng = random.Random(2026)
    deals = []
    for _ in range(n):
        deck = [Card(i) for i in range(52)]
        rng.shuffle(deck)
        deals.append([sorted(deck[13 * k : 13 * k + 13], reverse=True) for k in range(4)])

    for preset in ("portal", "classic"):
        rules = Rules.preset(preset)
        start = time.perf_counter()
        rounds = [
            [
                PlayerInput.make(f"p{k}", chi=[h[:5], h[5:10], h[10:]], cap=5000)
                for k, h in enumerate(hands)
            ]
            for hands in deals
        ]
        build = time.perf_counter() - start
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for players in rounds:
                settle(rules, 100, players)
            best = min(best, time.perf_counter() - start)
        print(
            f"{preset:8s} 4-player round: settle {best / n * 1e6:7.1f} µs"
            f"   (+ input validation {build / n * 1e6:6.1f} µs)   over {n:,} rounds"
        )


if __name__ == "__main__":
    main()
