"""Build ``winprob.json``, the opponents' chi-strength table used by auto-arrange.

Run from the repository root (about 8 CPU-minutes: 5 minutes on two idle cores)::

    python -m games.rules.tables.build_winprob [--workers 2]

For each preset it deals random four-player rounds from a fixed seed, arranges every hand
and counts the arranged chi values per chi, bucketed by ``value >> BUCKET_SHIFT``. Round 0
arranges with the naive arranger (strongest chi 1, then strongest chi 2); every later round
arranges with the expected-units search over the previous round's table, so the table
describes opponents who play roughly as well as the auto-arranger. Only the last round's
counts are written. Each chunk of deals has its own seed, so the output does not depend on
how chunks are spread over worker processes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from itertools import permutations
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from games.rules.arrange import (
    BUCKET_SHIFT,
    Arrangement,
    WinTable,
    best_arrangement,
    field_for,
    naive_arrangement,
)
from games.rules.cards import Card, parse_cards
from games.rules.hands import eval3, eval5, evaluator5
from games.rules.presets import Rules

SEED = 20261129
FORMAT = 1
PRESETS = ("portal", "classic")
# Deals per round: the naive round is cheap; later rounds run the full search on every hand.
ROUND_DEALS = (10000, 6000, 6000)
CHUNK = 250
OUTPUT = Path(__file__).with_name("winprob.json")

# Values of a few hands, stored with the table: a test fails if the hand scale changes.
SCALE_CHECK = {
    "5": ("AS KS QS JS TS", "5H 4H 3H 2H AH", "AS AC AD AH 2C", "KS KC 7D 7H 2C", "AS KD 9C 7H 3S"),
    "3": ("AS AC AD", "KS KC 2D", "AS KD QC"),
}

_Task = tuple[str, int, int, int, dict[str, Any] | None]
_Result = tuple[list[Counter[int]], int, int]


def scale_check(preset: str) -> dict[str, list[int]]:
    return {
        "5": [eval5(parse_cards(h), preset) for h in SCALE_CHECK["5"]],
        "3": [eval3(parse_cards(h)) for h in SCALE_CHECK["3"]],
    }


def _run_chunk(task: _Task) -> _Result:
    preset, round_no, chunk, deals, table = task
    rng = random.Random(f"{SEED}:{preset}:{round_no}:{chunk}")
    arrange: Callable[[Sequence[Card]], Arrangement]
    if table is None:
        arrange = partial(naive_arrangement, preset=preset)
    else:
        field = field_for(Rules.preset(preset), WinTable.from_dict(preset, table))
        arrange = partial(best_arrangement, field=field)
    ev5 = evaluator5(preset)
    counts: list[Counter[int]] = [Counter(), Counter(), Counter()]
    scooped = pairs = 0
    deck = [Card(i) for i in range(52)]
    for _ in range(deals):
        rng.shuffle(deck)
        values = []
        for seat in range(4):
            chi1, chi2, chi3 = arrange(deck[seat * 13 : seat * 13 + 13])
            v = (ev5(chi1), ev5(chi2), eval3(chi3))
            for k in range(3):
                counts[k][v[k] >> BUCKET_SHIFT] += 1
            values.append(v)
        for x, y in permutations(range(4), 2):
            pairs += 1
            scooped += all(values[x][k] < values[y][k] for k in range(3))
    return counts, scooped, pairs


def _round(
    pool: Any, preset: str, round_no: int, deals: int, table: dict[str, Any] | None
) -> dict[str, Any]:
    tasks: list[_Task] = [
        (preset, round_no, chunk, min(CHUNK, deals - start), table)
        for chunk, start in enumerate(range(0, deals, CHUNK))
    ]
    counts: list[Counter[int]] = [Counter(), Counter(), Counter()]
    scooped = pairs = 0
    for chunk_counts, chunk_scooped, chunk_pairs in pool.map(_run_chunk, tasks):
        for k in range(3):
            counts[k].update(chunk_counts[k])
        scooped += chunk_scooped
        pairs += chunk_pairs
    result = WinTable(
        preset,
        hands=deals * 4,
        scoop_rate=round(scooped / pairs, 6),
        chi=(
            tuple(sorted(counts[0].items())),
            tuple(sorted(counts[1].items())),
            tuple(sorted(counts[2].items())),
        ),
    )
    return result.to_dict()


def build(workers: int, rounds: Sequence[int] = ROUND_DEALS) -> dict[str, Any]:
    presets: dict[str, Any] = {}
    with Pool(workers) as pool:
        for preset in PRESETS:
            table: dict[str, Any] | None = None
            for round_no, deals in enumerate(rounds):
                started = time.perf_counter()
                table = _round(pool, preset, round_no, deals, table)
                print(
                    f"{preset} round {round_no}: {deals} deals, "
                    f"scoop rate {table['scoop_rate']:.4f}, "
                    f"{time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                )
            assert table is not None
            presets[preset] = {**table, "scale_check": scale_check(preset)}
    return {
        "format": FORMAT,
        "seed": SEED,
        "rounds": list(rounds),
        "bucket_shift": BUCKET_SHIFT,
        "presets": presets,
    }


def write(data: dict[str, Any], path: Path) -> None:
    # One line per chi keeps the file small and its diffs readable.
    lines = ["{"]
    head = {k: v for k, v in data.items() if k != "presets"}
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "presets": {')
    names = list(data["presets"])
    for n, name in enumerate(names):
        preset = data["presets"][name]
        lines.append(f"    {json.dumps(name)}: {{")
        lines.append(f'      "hands": {preset["hands"]},')
        lines.append(f'      "scoop_rate": {preset["scoop_rate"]},')
        lines.append(f'      "scale_check": {json.dumps(preset["scale_check"])},')
        lines.append('      "chi": [')
        for k, chi in enumerate(preset["chi"]):
            lines.append(f"        {json.dumps(chi, separators=(',', ':'))}{',' if k < 2 else ''}")
        lines.append("      ]")
        lines.append("    }" + ("," if n < len(names) - 1 else ""))
    lines.append("  }")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--rounds", type=int, nargs="+", default=list(ROUND_DEALS), help="deals per round"
    )
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    data = build(args.workers, args.rounds)
    write(data, args.output)
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
