"""What scoring a daily-hand attempt costs: the engine's best (``suggest``, once a day, then
cached on the day's row) and the player's arrangement (``appraise``, every submit).

Run: .venv/bin/python benchmarks/bench_daily.py [n_days]
Deals ``n_days`` daily hands from fixed seeds exactly as the site does (seat 1 of the
four-seat fair deal, client seed ``daily:YYYY-MM-DD``) and prints the median, 95th
percentile and worst time of each step. Exits non-zero if any step did not run for every
hand.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules import Rules, appraise, suggest
from games.rules.arrange import naive_arrangement
from games.rules.fair import deal_from_seeds


def timed(fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - start) * 1000, out


def line(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return (
        f"{name:<44} n={len(ms):<5} median {statistics.median(ms):7.2f} ms"
        f"   p95 {p95:7.2f} ms   worst {ms[-1]:7.2f} ms"
    )


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rules = Rules.preset("portal")
    start = date(2026, 1, 1)
    best_ms: list[float] = []
    appraise_best_ms: list[float] = []
    appraise_naive_ms: list[float] = []
    for k in range(n):
        day = start + timedelta(days=k)
        seed = f"{day.toordinal():064x}"
        hand = deal_from_seeds(seed, [f"daily:{day.isoformat()}"], 4)[0]
        ms, found = timed(suggest, hand, rules, 0)
        best_ms.append(ms)
        appraise_best_ms.append(timed(appraise, found[0].chi, rules)[0])
        appraise_naive_ms.append(timed(appraise, naive_arrangement(hand, "portal"), rules)[0])
    print(f"daily-hand scoring, {n} daily hands (portal)")
    print(line("best arrangement: suggest(n=0), once a day", best_ms))
    print(line("an attempt: appraise(the best arrangement)", appraise_best_ms))
    print(line("an attempt: appraise(a naive arrangement)", appraise_naive_ms))
    ran = {len(best_ms), len(appraise_best_ms), len(appraise_naive_ms)}
    if ran != {n}:
        print(f"FAILED: not every step ran for all {n} hands: {ran}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
