"""Auto-arrange against the naive arranger, settled by ``scoring.settle`` under portal rules.

Run: /work/main/.venv/bin/python benchmarks/bench_arrange_quality.py [n_deals] [workers] [preset]

Every random 4-player deal (fixed seed, default 2,000) is played twice with the same cards:
once with seats 0 and 2 auto-arranged (``suggest(...)[0]``) and seats 1 and 3 naive, once the
other way round, so every hand is played by both arrangers (duplicate format: the luck of
the deal cancels). The naive arranger takes the strongest chi 1, then the strongest chi 2
of the rest, the rest as chi 3; if that were a foul it would keep chi 1 and take the next
strongest chi 2 that is legal (the count of such fixes is printed). Prints mean units per
hand for both arrangers, and per-chi results of auto-arranged chi against naive ones.

Calibration: each deal is also played with all four seats auto-arranged, and the ``ev`` that
``suggest`` quoted for each seat is set against the units the seat then won (by quintile of
the quote). The quotes assume a field like the table's, which here is exactly the case.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from itertools import combinations
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.arrange import naive_arrangement, suggest
from games.rules.cards import Card
from games.rules.hands import eval3, evaluator5
from games.rules.presets import Rules
from games.rules.scoring import PlayerInput, settle

SEED = 77
CHUNK = 50


def _strongest_then_strongest_fouls(hand: list[Card], preset: str) -> bool:
    """Would 'strongest chi 1, strongest chi 2 of the rest' be a foul (before any fix)?"""
    ev5 = evaluator5(preset)
    chi1 = max(combinations(hand, 5), key=ev5)
    rest = [c for c in hand if c not in chi1]
    chi2 = max(combinations(rest, 5), key=ev5)
    chi3 = [c for c in rest if c not in chi2]
    return eval3(chi3) > ev5(chi2)


def run_chunk(task: tuple[int, int, str]) -> dict[str, list[float]]:
    start, count, preset = task
    rules = Rules.preset(preset)
    out: dict[str, list[float]] = {
        "auto": [], "naive": [], "chi_won": [0, 0, 0], "chi_tied": [0, 0, 0],
        "chi_pairs": [0], "fixes": [0], "auto_instant": [0], "naive_instant": [0],
        "auto_scooped": [0], "naive_scooped": [0], "quoted": [], "realised": [],
    }  # fmt: skip
    for deal in range(start, start + count):
        deck = [Card(i) for i in range(52)]
        random.Random(f"{SEED}:{deal}").shuffle(deck)
        hands = [deck[i * 13 : i * 13 + 13] for i in range(4)]
        auto = [suggest(h, rules, n=0)[0] for h in hands]
        naive = [naive_arrangement(h, preset) for h in hands]
        out["fixes"][0] += sum(_strongest_then_strongest_fouls(h, preset) for h in hands)
        everyone = [PlayerInput(f"s{i}", tuple(hands[i]), auto[i].chi) for i in range(4)]
        for i, p in enumerate(settle(rules, 1, everyone).players):
            out["quoted"].append(auto[i].ev)
            out["realised"].append(p.units)
        for auto_seats in ((0, 2), (1, 3)):
            players = [
                PlayerInput(f"s{i}", tuple(hands[i]), auto[i].chi if i in auto_seats else naive[i])
                for i in range(4)
            ]
            result = settle(rules, 1, players)
            for i, p in enumerate(result.players):
                who = "auto" if i in auto_seats else "naive"
                out[who].append(p.units)
                out[f"{who}_instant"][0] += p.instant is not None
                out[f"{who}_scooped"][0] += p.scooped is not None
            for pair in result.pairs:
                ia, ib = int(pair.a[1:]), int(pair.b[1:])
                if pair.chi is None or (ia in auto_seats) == (ib in auto_seats):
                    continue
                auto_id = pair.a if ia in auto_seats else pair.b
                out["chi_pairs"][0] += 1
                for k, r in enumerate(pair.chi):
                    out["chi_won"][k] += r.winner == auto_id
                    out["chi_tied"][k] += r.winner is None
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    preset = sys.argv[3] if len(sys.argv) > 3 else "portal"
    started = time.perf_counter()
    tasks = [(s, min(CHUNK, n - s), preset) for s in range(0, n, CHUNK)]
    with Pool(workers) as pool:
        parts = pool.map(run_chunk, tasks)
    total: dict[str, list[float]] = {}
    for part in parts:
        for key, values in part.items():
            if key in ("auto", "naive", "quoted", "realised"):
                total.setdefault(key, []).extend(values)
            else:
                acc = total.setdefault(key, [0] * len(values))
                for i, v in enumerate(values):
                    acc[i] += v
    auto, naive = total["auto"], total["naive"]
    pairs = total["chi_pairs"][0]
    elapsed = time.perf_counter() - started
    print(f"{n} deals x 2 seatings, preset {preset}, seed {SEED}, {elapsed:.0f} s")
    print(
        f"  mean units per hand: auto {statistics.fmean(auto):+.3f} "
        f"(sd {statistics.stdev(auto):.2f}, n {len(auto)}), naive {statistics.fmean(naive):+.3f}"
    )
    print(f"  auto-arranged chi vs naive chi over {pairs:.0f} pairs (won / tied / lost):")
    for k in range(3):
        won, tied = total["chi_won"][k] / pairs, total["chi_tied"][k] / pairs
        print(f"    chi {k + 1}: {won:.3f} / {tied:.3f} / {1 - won - tied:.3f}")
    print(
        f"  instant wins claimed: auto {total['auto_instant'][0]:.0f}, "
        f"naive {total['naive_instant'][0]:.0f}; scooped: auto {total['auto_scooped'][0]:.0f}, "
        f"naive {total['naive_scooped'][0]:.0f}"
    )
    quoted, realised = total["quoted"], total["realised"]
    print(
        f"  calibration, all seats auto ({len(quoted)} hands): mean quoted ev "
        f"{statistics.fmean(quoted):+.2f}, mean won {statistics.fmean(realised):+.2f}, "
        f"correlation {statistics.correlation(quoted, realised):.2f}"
    )
    ranked = sorted(zip(quoted, realised, strict=True))
    fifth = len(ranked) // 5
    for q in range(5):
        group = ranked[q * fifth : (q + 1) * fifth if q < 4 else len(ranked)]
        print(
            f"    quintile {q + 1}: quoted {statistics.fmean(g[0] for g in group):+6.2f}, "
            f"won {statistics.fmean(g[1] for g in group):+6.2f}"
        )
    fixes = total["fixes"][0]
    print(f"  naive 'strongest then strongest' fouls needing the fix: {fixes:.0f} of {4 * n} hands")


if __name__ == "__main__":
    main()
