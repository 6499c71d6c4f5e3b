"""benchmarks/bench_floor.py (the stack's floor) on a tiny load: it prints its CPU a round
and the ratio to ours and exits 0; a relay killed in the measured window fails it, naming
what did not run. Nothing here bounds a time: a slow machine makes the figures worse, not
the outcome different (the first round of a table settles about 10 s in; the window is 16)."""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest

from tests.support.processes import PYTHON, ROOT
from tests.support.services import TEST_DATABASE_URL, TEST_REDIS_URL

pytestmark = [pytest.mark.redis, pytest.mark.slow]

TINY = ["--tables", "2", "--ramp", "1", "--warmup", "0.5"]


def _floor(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "benchmarks/bench_floor.py", *TINY, *options],
        cwd=ROOT,
        env={**os.environ, "TEST_REDIS_URL": TEST_REDIS_URL},
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_the_floor_prints_its_cpu_a_round_and_the_ratio_and_exits_0():
    done = _floor("--seconds", "16", "--ours-ms", "78.6")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    floor = re.search(r"^floor: ([\d.]+) ms of server CPU a round", done.stdout, re.MULTILINE)
    assert floor and float(floor.group(1)) > 0, done.stdout
    assert re.search(r"ours ÷ floor = [\d.]+×", done.stdout), done.stdout
    assert "OK: every part of the load ran" in done.stdout


def test_a_relay_killed_in_the_measured_window_fails_the_floor_and_is_named():
    done = _floor("--seconds", "2", "--kill-daphne")
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-2000:]
    assert "FAILED: part of the load did not run:" in done.stdout
    assert re.search(r"the relay daphne on port \d+ died", done.stdout), done.stdout


@pytest.mark.postgres  # the recording makes a scratch database on the server
def test_the_relays_recorded_round_is_what_the_services_send_now():
    # The relay replays benchmarks/floor/round.json: a change to a round's messages (a new
    # event, a payload grown) must be recorded again, or the floor stops being the same load.
    # Recorded afresh as round.json is, in a process and a database of its own: in this
    # process it once took an extra, empty timer step on CI (an advance that found the round
    # already moved on), with nothing here to show what else had moved it.
    from benchmarks.floor.record import OUT, shape

    done = subprocess.run(
        [PYTHON, "-m", "benchmarks.floor.record", "--print"],
        cwd=ROOT,
        env={**os.environ, "TEST_DATABASE_URL": TEST_DATABASE_URL},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    fresh = shape(json.loads(done.stdout))
    committed = shape(json.loads(OUT.read_text()))
    assert committed.keys() == fresh.keys()
    for step, rows in fresh.items():
        where = [row[:3] for row in rows]
        assert [row[:3] for row in committed[step]] == where, f"{step}: record it again"
        for (*_, size), (*_, then) in zip(rows, committed[step], strict=True):
            # Ids, names and timestamps differ by a few bytes.
            assert abs(size - then) <= max(16, then // 10), f"{step}: {then} -> {size} bytes"
