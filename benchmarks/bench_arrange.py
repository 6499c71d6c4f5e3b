"""Auto-arrange latency: ``suggest`` (best + 3 alternatives) per random 13-card hand.

Run: /work/main/.venv/bin/python benchmarks/bench_arrange.py [n_hands] [preset]
Prints median, p90, p99 and max milliseconds per hand over ``n_hands`` (default 1,000)
random hands from a fixed seed, after a short warm-up (the per-value odds are memoised
per process, as in a long-running server): wall-clock time, and this process's CPU time,
which is what the hand costs when the shared machine is busy with other work (the load
average is printed too). Also times ``best_in_hindsight`` on a few deals.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.arrange import best_in_hindsight, suggest
from games.rules.cards import Card
from games.rules.presets import Rules
from games.rules.scoring import PlayerInput

SEED = 2026


def percentile(sorted_ms: list[float], p: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, round(p / 100 * (len(sorted_ms) - 1)))]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rules = Rules.preset(sys.argv[2] if len(sys.argv) > 2 else "portal")
    rng = random.Random(SEED)
    deck = [Card(i) for i in range(52)]
    for _ in range(50):  # warm-up
        suggest(rng.sample(deck, 13), rules)
    hands = [rng.sample(deck, 13) for _ in range(n)]
    wall, cpu = [], []
    for hand in hands:
        started, started_cpu = time.perf_counter(), time.process_time()
        suggest(hand, rules)
        cpu.append((time.process_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    load = os.getloadavg()[0]
    print(f"suggest, preset {rules.name}, {n} random hands (seed {SEED}), load average {load:.1f}:")
    for name, times in (("wall", wall), ("cpu ", cpu)):
        times.sort()
        print(
            f"  {name} median {statistics.median(times):.1f} ms  p90 {percentile(times, 90):.1f} ms"
            f"  p99 {percentile(times, 99):.1f} ms  max {times[-1]:.1f} ms"
            f"  mean {statistics.fmean(times):.1f} ms"
        )
    hindsight = []
    for _ in range(20):
        rng.shuffle(deck)
        mine, *others = (deck[i * 13 : i * 13 + 13] for i in range(4))
        opponents = [
            PlayerInput(f"p{k}", tuple(h), suggest(h, rules, n=0)[0].chi)
            for k, h in enumerate(others)
        ]
        started = time.perf_counter()
        best_in_hindsight(mine, opponents, rules)
        hindsight.append((time.perf_counter() - started) * 1000)
    hindsight.sort()
    print(
        f"best_in_hindsight, 20 deals vs 3 opponents: "
        f"median {statistics.median(hindsight):.0f} ms  "
        f"max {hindsight[-1]:.0f} ms"
    )


if __name__ == "__main__":
    main()
