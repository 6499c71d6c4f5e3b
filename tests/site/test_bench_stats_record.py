"""benchmarks/bench_stats_record.py (a statistics run's cost) on a tiny load: it prints
the CPU and wall time of its runs and exits 0 when every run added what it recorded."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from tests.support.processes import PYTHON, ROOT
from tests.support.services import TEST_DATABASE_URL

pytestmark = [pytest.mark.postgres]


def test_the_stats_benchmark_prints_a_runs_cost_and_exits_0_when_the_totals_add_up():
    server = TEST_DATABASE_URL.rsplit("/", 1)[0] + "/"
    done = subprocess.run(
        [PYTHON, "benchmarks/bench_stats_record.py", "--players", "12", "--runs", "2"],
        cwd=ROOT,
        env={**os.environ, "BENCH_DATABASE_URL": server},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert re.search(r"36 totals, 12 stakes\), 2 runs: CPU p50 [\d.]+ ms", done.stdout)
    assert "OK: every run added what it recorded" in done.stdout
