"""python -m games.rules score: section-10 output, arrays, and exit status 2 on bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.rules.__main__ import main

REPO = Path(__file__).resolve().parents[2]
P_CHI = [["AS", "AC", "KS", "KC", "2S"], ["QS", "QC", "JS", "JC", "3S"], ["TD", "TH", "4S"]]
Q_CHI = [["AD", "AH", "9S", "9C", "2D"], ["QD", "QH", "8S", "8C", "3D"], ["TS", "7S", "6S"]]
ROUND: dict[str, Any] = {
    "stake": 100,
    "players": [{"id": "p", "chi": P_CHI}, {"id": "q", "chi": Q_CHI}],
}


def run(
    argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_the_section_10_fields(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["score"], json.dumps(ROUND), monkeypatch, capsys)
    assert code == 0 and err == ""
    result = json.loads(out)
    assert [(p["id"], p["units"], p["xu"]) for p in result["players"]] == [
        ("p", 9, 900),
        ("q", -9, -900),
    ]
    assert result["pairs"][0]["scoop"] == {"loser": "q", "kind": "all", "x": 3}


def test_preset_flag_is_the_default_for_rounds_without_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["score", "--preset", "classic"], json.dumps(ROUND), monkeypatch, capsys)
    assert code == 0
    assert json.loads(out)["players"][0]["units"] == 6  # classic: scoop_one x2 against one opponent


def test_an_array_of_rounds_gives_an_array_of_results(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        ["score"], json.dumps([ROUND, {**ROUND, "preset": "classic"}]), monkeypatch, capsys
    )
    assert code == 0
    assert [r["players"][0]["units"] for r in json.loads(out)] == [9, 6]


BAD_INPUTS = {
    "not json": "{",
    "wrong count": json.dumps(
        {
            **ROUND,
            "players": [
                {"id": "p", "chi": P_CHI},
                {"id": "q", "chi": [Q_CHI[0], Q_CHI[1], ["TS", "7S"]]},
            ],
        }
    ),
    "duplicate card": json.dumps(
        {
            **ROUND,
            "players": [
                {"id": "p", "chi": P_CHI},
                {"id": "q", "chi": [Q_CHI[0], Q_CHI[1], ["TS", "7S", "7S"]]},
            ],
        }
    ),
    "unknown card": json.dumps(
        {
            **ROUND,
            "players": [
                {"id": "p", "chi": P_CHI},
                {"id": "q", "chi": [Q_CHI[0], Q_CHI[1], ["TS", "7S", "1S"]]},
            ],
        }
    ),
    "card held twice": json.dumps(
        {
            **ROUND,
            "players": [
                {"id": "p", "chi": P_CHI},
                {"id": "q", "chi": [Q_CHI[0], Q_CHI[1], ["TS", "7S", "AS"]]},
            ],
        }
    ),
    "unknown preset": json.dumps({**ROUND, "preset": "vegas"}),
    "unknown rule key": json.dumps({**ROUND, "rules": {"ante": 2}}),
    "value outside section 9": json.dumps({**ROUND, "rules": {"bonus": {"trips_chi3": 21}}}),
    "bad round in an array": json.dumps([ROUND, {**ROUND, "stake": -1}]),
    "on_timeout outside section 9": json.dumps({**ROUND, "rules": {"on_timeout": "skip"}}),
    "quads_split not a boolean": json.dumps({**ROUND, "rules": {"quads_split": "yes"}}),
}


@pytest.mark.parametrize("name", list(BAD_INPUTS))
def test_malformed_input_exits_2_with_a_message_on_stderr(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["score"], BAD_INPUTS[name], monkeypatch, capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and len(err) > 20


def test_unknown_preset_flag_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["score", "--preset", "vegas"], json.dumps(ROUND), monkeypatch, capsys)
    assert code == 2 and out == "" and "vegas" in err


def test_the_real_process_exits_2_on_bad_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.rules", "score"],
        input=BAD_INPUTS["card held twice"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "AS" in done.stderr and "card_held_twice" in done.stderr


@pytest.mark.parametrize("on_timeout", ["auto", "foul"])
def test_score_accepts_the_section_9_timeout_rule_and_settles_the_hands_given(
    on_timeout: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The table applies on_timeout before settling (it plays a draft or the engine's best
    # as an arranged hand); an unarranged player is binh lủng whatever the rule says.
    q_cards = [card for part in Q_CHI for card in part]
    unarranged = {
        **ROUND,
        "rules": {"on_timeout": on_timeout, "quads_split": False},
        "players": [
            {"id": "p", "chi": P_CHI},
            {"id": "q", "cards": q_cards, "status": "unarranged"},
        ],
    }
    code, out, err = run(["score"], json.dumps(unarranged), monkeypatch, capsys)
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["rules"]["on_timeout"] == on_timeout
    assert [p["foul"] for p in result["players"]] == [False, True]
