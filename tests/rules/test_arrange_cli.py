"""The ``arrange`` command line of docs/rules.md#cli: one hand, a batch on stdin, bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.rules.__main__ import main
from games.rules.cards import parse_cards
from games.rules.hands import is_foul

HAND = ["AS", "KS", "QS", "JS", "TS", "9H", "9D", "9C", "2S", "2D", "3C", "3H", "4D"]
THREE_FLUSHES = ["AS", "9S", "7S", "4S", "2S", "KH", "QH", "8H", "6H", "3H", "JD", "5D", "4D"]
ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(["arrange", *argv])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else out, err


def assert_answers(result: Any, hand: list[str], preset: str = "portal") -> None:
    assert set(result) == {"best", "suggestions"}
    assert result["best"] == result["suggestions"][0]
    for a in result["suggestions"]:
        assert set(a) == {"chi", "win", "ev", "instant"}
        assert sorted(c for chi in a["chi"] for c in chi) == sorted(hand)
        assert [len(chi) for chi in a["chi"]] == [5, 5, 3]
        chi1, chi2, chi3 = (parse_cards(chi) for chi in a["chi"])
        assert not is_foul(chi1, chi2, chi3, preset)
        assert all(0 <= p <= 1 for p in a["win"])
        assert isinstance(a["ev"], float)


def test_one_hand_prints_the_best_and_the_suggestions(capsys: pytest.CaptureFixture[str]) -> None:
    code, result, err = run(capsys, *HAND)
    assert code == 0
    assert err == ""
    assert_answers(result, HAND)
    assert result["best"]["chi"][0] == ["AS", "KS", "QS", "JS", "TS"]
    assert result["best"]["instant"] is None


def test_ten_is_accepted_as_10_and_the_preset_is_honoured(
    capsys: pytest.CaptureFixture[str],
) -> None:
    hand = [c.replace("T", "10") for c in HAND]
    code, result, _ = run(capsys, "--preset", "classic", *hand)
    assert code == 0
    assert_answers(result, HAND, "classic")


def test_an_instant_arrangement_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, result, _ = run(capsys, *THREE_FLUSHES)
    assert code == 0
    assert result["best"]["instant"] == "three_flushes"


def test_a_batch_on_stdin_gives_results_in_order(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps([THREE_FLUSHES, HAND])))
    code, result, _ = run(capsys, "-")
    assert code == 0
    assert len(result) == 2
    assert_answers(result[0], THREE_FLUSHES)
    assert_answers(result[1], HAND)
    assert result[0]["best"]["instant"] == "three_flushes"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (HAND[:12], "13 cards"),
        ([*HAND[:12], "AS"], "twice"),
        ([*HAND[:12], "ZZ"], "unknown card"),
        (["--preset", "vegas", *HAND], "invalid choice"),
    ],
)
def test_bad_hands_exit_2_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert message in err


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("not json", "not valid JSON"),
        ('{"cards": []}', "JSON array"),
        (json.dumps([HAND, HAND[:5]]), "hand 1: "),
    ],
)
def test_a_bad_batch_exits_2_and_names_the_hand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, message: str
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code, out, err = run(capsys, "-")
    assert code == 2
    assert out == ""
    assert message in err


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.rules", "arrange", *HAND],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert_answers(json.loads(done.stdout), HAND)
