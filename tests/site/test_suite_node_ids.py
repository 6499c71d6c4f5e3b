"""Every test of the suite has a node id of its own: pytest-xdist (``make test``) schedules
tests by node id, and of tests that share one it ran one. It happened to the schemathesis
test of the API: pytest 9 gave its 19 operations one node id, and 18 of them never ran
under ``make test`` (tests/conftest.py, ``_node_id_from_name``)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

from tests.support.processes import ROOT


def test_no_two_tests_share_a_node_id() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "tests"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    assert len(ids) > 2000  # the whole suite, not an error's few lines
    shared = {node: count for node, count in Counter(ids).items() if count > 1}
    assert not shared, shared
    schema = [node for node in ids if node.startswith("tests/api/test_schema.py::")]
    assert len(schema) > 1 and all("[" in node for node in schema)  # one a operation
