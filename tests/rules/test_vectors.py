"""The public test vectors (tests/vectors/*.json) through the library and through the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.rules.scoring import settle_json

VECTOR_DIR = Path(__file__).resolve().parent.parent / "vectors"
REPO = VECTOR_DIR.parent.parent
PLAYER_FIELDS = ("id", "units", "xu", "foul", "instant")
PAIR_FIELDS = ("a", "b", "kind", "chi", "scoop", "units")


def load_vectors() -> list[dict[str, Any]]:
    vectors = []
    for path in sorted(VECTOR_DIR.glob("*.json")):
        for vector in json.loads(path.read_text(encoding="utf-8")):
            vector["file"] = path.stem
            vectors.append(vector)
    return vectors


VECTORS = load_vectors()


def expected_view(expected: dict[str, Any]) -> dict[str, Any]:
    return {"players": expected["players"], "pairs": expected["pairs"]}


def actual_view(output: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """The output restricted to the fields the vector states (pair xu only where given)."""
    pairs = []
    for got, want in zip(output["pairs"], expected["pairs"], strict=False):
        fields = PAIR_FIELDS + (("xu",) if "xu" in want else ())
        pairs.append({k: got[k] for k in fields})
    pairs += output["pairs"][len(expected["pairs"]) :]
    return {
        "players": [{k: p[k] for k in PLAYER_FIELDS} for p in output["players"]],
        "pairs": pairs,
    }


def test_there_are_at_least_80_vectors_each_with_a_reason() -> None:
    assert len(VECTORS) >= 80
    for vector in VECTORS:
        assert vector["why"].strip(), vector["name"]
        for player in vector["expected"]["players"]:
            assert set(PLAYER_FIELDS) <= set(player), vector["name"]
        for pair in vector["expected"]["pairs"]:
            assert set(PAIR_FIELDS) <= set(pair), vector["name"]


def test_vector_names_are_unique() -> None:
    names = [v["name"] for v in VECTORS]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("vector", VECTORS, ids=[f"{v['file']}:{v['name']}" for v in VECTORS])
def test_library_settles_vector(vector: dict[str, Any]) -> None:
    output = settle_json(vector["input"])
    expected = vector["expected"]
    assert actual_view(output, expected) == expected_view(expected), vector["why"]


def test_cli_settles_every_vector_in_one_batch() -> None:
    batch = json.dumps([v["input"] for v in VECTORS])
    done = subprocess.run(
        [sys.executable, "-m", "games.rules", "score"],
        input=batch,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    outputs = json.loads(done.stdout)
    assert len(outputs) == len(VECTORS)
    for vector, output in zip(VECTORS, outputs, strict=True):
        expected = vector["expected"]
        assert actual_view(output, expected) == expected_view(expected), vector["name"]
