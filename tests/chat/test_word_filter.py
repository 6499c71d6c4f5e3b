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


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("fu\u200dck", "**\u200d**"),  # a zero-width joiner inside the word
        ("fu\u200bck off", "**\u200b** off"),  # a zero-width space
        ("f\u0443ck", "****"),  # Cyrillic у
        ("ｆｕｃｋ", "****"),  # full-width
        ("𝐟𝐮𝐜𝐤 you", "**** you"),  # mathematical bold
        ("\u0455h\u0456t", "****"),  # Cyrillic ѕ and і
        ("FU\u0421K", "****"),  # Cyrillic С
        ("f\u0301uck", "*\u0301***"),  # a combining accent inside the word
        ("đ\u200b.m thua rồi", "*\u200b.* thua rồi"),
    ],
)
def test_invisible_characters_look_alike_letters_and_full_width_forms_do_not_evade_it(
    said: str, shown: str
) -> None:
    assert mask(said) == shown


@pytest.mark.parametrize(
    "said",
    [
        "Привет, как дела?",  # Russian is not read as English
        "tuy vậy, ｃｌａｓｓ",
        "Bình ơi, chơi tiếp không?",
    ],
)
def test_other_scripts_and_full_width_everyday_words_are_left_alone(said: str) -> None:
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
