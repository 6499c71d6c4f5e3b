"""How often honest play fires the chip-dumping signal (moderation/collusion.py) in one
tournament, by table size and tournament length: the signal's false positives.

    .venv/bin/python benchmarks/bench_collusion.py [--rounds 2000] [--tournaments 3000]
        [--seed 1] [--max-rate 0.01]

Deals ``--rounds`` rounds at tables of three and of four from a seeded generator; every
player takes the engine's best arrangement (``games.rules.suggest``), the engine settles
them. Then it draws ``--tournaments`` tournaments of k of those rounds (k = 5 … 15) for each
table size and counts the tournaments in which ``dumping_findings`` finds anyone, every
player counting as an entrant. Prints the rate per table size and length, and exits 1 when
the rate at the signal's own threshold (the fewest rounds that can fire it at that table
size) is over ``--max-rate``: a signal that holds honest players' prizes that often is a
bug, not a reason to look.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LENGTHS = (5, 6, 8, 10, 12, 15)


def _honest_rounds(players: int, count: int, rng: random.Random) -> list[Any]:
    from games.rules import Rules, full_deck, suggest
    from games.rules.scoring import PlayerInput, settle

    rules = Rules.preset("portal")
    rounds = []
    for _ in range(count):
        deck = list(full_deck())
        rng.shuffle(deck)
        hands = []
        for seat in range(players):
            cards = deck[13 * seat : 13 * seat + 13]
            hands.append(PlayerInput.make(str(seat), cards, suggest(cards, rules, n=0)[0].chi))
        pairs = settle(rules, 1, hands).to_json()["pairs"]
        rounds.append(({str(seat): seat + 1 for seat in range(players)}, pairs))
    return rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds dealt per table size")
    parser.add_argument("--tournaments", type=int, default=3000, help="drawn per length")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-rate", type=float, default=0.01)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maubinh_site.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    django.setup()
    from moderation.collusion import DUMP_MIN_ROUNDS, THREE_HANDED_WEIGHT, dumping_findings

    rng = random.Random(args.seed)
    print(
        f"chip dumping among honest players: {args.rounds} rounds a table size, "
        f"{args.tournaments} tournaments a length, seed {args.seed}"
    )
    print(f"{'players':>8} {'rounds':>7} {'fired':>8}")
    failed = []
    for players in (3, 4):
        dealt = _honest_rounds(players, args.rounds, rng)
        if len(dealt) != args.rounds:
            failed.append(f"{players} players: {len(dealt)} of {args.rounds} rounds dealt")
        everyone = set(range(1, players + 1))
        weight = THREE_HANDED_WEIGHT if players == 3 else 1.0
        threshold = math.ceil(DUMP_MIN_ROUNDS / weight)
        for length in sorted({*LENGTHS, threshold}):
            fired = sum(
                bool(dumping_findings(everyone, rng.sample(dealt, length)))
                for _ in range(args.tournaments)
            )
            rate = fired / args.tournaments
            mark = "  <- the signal's threshold" if length == threshold else ""
            print(f"{players:>8} {length:>7} {rate:>8.2%}{mark}")
            if length == threshold and rate > args.max_rate:
                failed.append(
                    f"{players} players, {length} rounds: honest play fires it in {rate:.2%} "
                    f"of tournaments (more than {args.max_rate:.0%})"
                )
    for line in failed:
        print(f"FAILED: {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
