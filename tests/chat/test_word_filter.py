"""The word filter masks Vietnamese and English swear words, and nothing else."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chat.wordfilter import entries, mask


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("Fuck you", "**** you"),
        ("what the SHIT", "what the ****"),
        ("f u c k", "* * * *"),
        ("F.U.C.K!", "*.*.*.*!"),
        ("sh1t happens", "**** happens"),
        ("địt mẹ mày", "*** ** mày"),
        ("ĐỊT", "***"),
        ("dit me may", "*** ** ***"),
        ("Đ M", "* *"),
        ("đ.m thua rồi", "*.* thua rồi"),
        ("vãi lồn", "*** ***"),
        ("vai lon", "*** ***"),
        ("đéo chơi nữa", "*** chơi nữa"),
        ("cặc", "***"),
    ],
)
def test_swear_words_and_their_simple_evasions_are_masked(said: str, shown: str) -> None:
    assert mask(said) == shown


@pytest.mark.parametrize(
    "said",
    [
        "the class is assorted",
        "Scunthorpe",
        "các bạn ơi, chơi đi",
        "cac ban oi di choi",  # typed without diacritics: các, đi
        "đít",  # not địt: the diacritics differ
        "con bích sấp mặt",  # a spade, face down
        "Chi 1 mậu binh, sập làng!",
        "deo kinh vao",  # đeo kính vào
    ],
)
def test_everyday_words_are_left_alone(said: str) -> None:
    assert mask(said) == said


def test_both_lists_are_loaded() -> None:
    listed = {entry.exact for entry in entries()}
    assert {"fuck", "địt", "đéo", "asshole"} <= listed


@given(st.text(max_size=200))
def test_masking_keeps_the_length_and_only_puts_asterisks(text: str) -> None:
    import unicodedata

    text = unicodedata.normalize("NFC", text)
    masked = mask(text)
    assert len(masked) == len(text)
    assert all(a == b or b == "*" for a, b in zip(text, masked, strict=True))
