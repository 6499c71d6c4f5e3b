"""The auto-arrange win table: reproducible from its seed, consistent with the hand scale."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.rules.arrange import WinTable, packaged_table
from games.rules.tables import build_winprob
from games.rules.tables.build_winprob import build, scale_check, write


def test_the_builder_gives_the_same_table_whatever_the_number_of_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(build_winprob, "CHUNK", 3)  # several chunks even for a tiny run
    one = build(workers=1, rounds=(7, 4))
    two = build(workers=2, rounds=(7, 4))
    assert one == two
    for preset in ("portal", "classic"):
        table = WinTable.from_dict(preset, one["presets"][preset])
        assert table.hands == 4 * 4
        assert all(sum(count for _, count in chi) == table.hands for chi in table.chi)


def test_the_written_file_reads_back_as_the_same_tables(tmp_path: Path) -> None:
    data = build(workers=1, rounds=(3,))
    write(data, tmp_path / "winprob.json")
    assert json.loads((tmp_path / "winprob.json").read_text("utf-8")) == data


def test_the_committed_table_matches_the_current_hand_scale() -> None:
    # A changed hand encoding makes the buckets meaningless: rebuild the table.
    for preset in ("portal", "classic"):
        table = packaged_table(preset)
        assert table.scale_check == scale_check(preset)
        assert table.hands >= 20_000
        assert all(sum(count for _, count in chi) == table.hands for chi in table.chi)
        assert 0 < table.scoop_rate < 0.5
