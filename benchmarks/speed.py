"""How fast this machine's cores are right now: a fixed pure-Python workload, in CPU time.

The same command's figures moved by half from one hour to the next on the same kind of
machine (docs/deploy.md, Capacity): the CPU a round costs followed the machine, not the
code. Benchmarks print this beside the load average, so that two runs, or a run and its
re-measure elsewhere, can be told apart by the machine they ran on.
"""

from __future__ import annotations

import json
import time

REPEATS = 5


def _workload() -> None:
    # What the servers spend their time on: building dicts, encoding and decoding JSON,
    # sorting, string formatting.
    rows = [{"id": i, "name": f"player{i}", "chi": [[i, i + 1, i + 2]] * 3} for i in range(4000)]
    for _ in range(4):
        text = json.dumps(rows)
        decoded = json.loads(text)
        decoded.sort(key=lambda row: (-row["id"], row["name"]))


def reference_ms() -> float:
    """The CPU milliseconds of the workload, the fastest of ``REPEATS`` runs."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        _workload()
        best = min(best, (time.process_time() - start) * 1000)
    return best


def describe() -> str:
    return (
        f"machine speed: a fixed reference workload took {reference_ms():.1f} ms of CPU "
        f"(benchmarks/speed.py, the fastest of {REPEATS}; less is faster)"
    )


if __name__ == "__main__":
    print(describe())
