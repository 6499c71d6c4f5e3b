"""The text policy (accounts.text): what every free-text field keeps of what was typed."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.errors import TextRefused
from accounts.text import MAX_MARKS, clean_text, name_key, skeleton

VIETNAMESE = [
    "Nguyễn Thị Ngọc Ánh",
    "Trần Đức Bình",
    "Lê Hữu Nghĩa",
    "Phạm Thuỳ Dương",
    "Chi 1 mậu binh, sập làng rồi! Đừng có mà binh lủng nhé 😄",
    "Ừ, để tớ xếp lại chi giữa: cù lũ ăn chắc.",
    "Việt Nam – đất nước, con người.",
]
INVISIBLE = [
    "\u200b",  # zero width space
    "\u200c",  # zero width non-joiner
    "\u200e",  # left-to-right mark
    "\u202e",  # right-to-left override
    "\u2066",  # left-to-right isolate
    "\u2069",  # pop directional isolate
    "\u2060",  # word joiner
    "\ufeff",  # byte order mark
    "\u00ad",  # soft hyphen
    "\u180e",  # Mongolian vowel separator
    "\u034f",  # combining grapheme joiner
    "\U000e0041",  # tag latin capital letter a
    "\x07",
    "\x00",
    "\ue000",  # private use
]
BLANK_LOOKING = ["\u3164", "\u2800", "\u115f", "\u1160", "\uffa0"]
SPACES = ["\u3000", "\u00a0", "\u2007", "\u202f"]


@pytest.mark.parametrize("text", VIETNAMESE)
def test_vietnamese_text_is_kept_exactly_as_typed(text: str) -> None:
    assert clean_text(text) == text


def test_decomposed_vietnamese_is_composed() -> None:
    typed = unicodedata.normalize("NFD", "Bình Dương")
    assert typed != "Bình Dương"
    assert clean_text(typed) == "Bình Dương"


def test_full_width_and_mathematical_letters_become_the_letters_they_stand_for() -> None:
    assert clean_text("ｆｕｃｋ") == "fuck"
    assert clean_text("𝐁𝐢𝐧𝐡") == "Binh"


@pytest.mark.parametrize("char", INVISIBLE)
def test_invisible_characters_are_removed(char: str) -> None:
    assert clean_text(f"ab{char}cd") == "abcd"


def test_right_to_left_override_and_zero_width_space_do_not_survive_in_a_name() -> None:
    assert clean_text("Bàn \u202eVIP\u202c\u200b") == "Bàn VIP"


def test_a_zero_width_joiner_stays_between_emoji_only() -> None:
    assert clean_text("fu\u200dck") == "fuck"
    assert clean_text("👨\u200d💻") == "👨\u200d💻"
    assert clean_text("🏳️\u200d🌈") == "🏳️\u200d🌈"


def test_a_variation_selector_stays_after_a_symbol_only() -> None:
    assert clean_text("❤️") == "❤️"
    assert clean_text("a\ufe0fb") == "ab"


@pytest.mark.parametrize("char", BLANK_LOOKING)
def test_text_made_only_of_blank_looking_characters_is_refused(char: str) -> None:
    with pytest.raises(TextRefused) as refused:
        clean_text(char * 3)
    assert refused.value.code == "text_invisible"


@pytest.mark.parametrize("char", [*BLANK_LOOKING, *SPACES, *INVISIBLE])
def test_blank_looking_and_invisible_characters_around_a_name_disappear(char: str) -> None:
    assert clean_text(f"{char}An{char}") == "An"


def test_only_spaces_is_empty_not_refused() -> None:
    assert clean_text("   \n\t " + "".join(SPACES)) == ""


def test_z_with_39_combining_marks_is_refused() -> None:
    with pytest.raises(TextRefused) as refused:
        clean_text("Z" + "\u0301\u0300\u0303" * 13)
    assert refused.value.code == "text_marks"


def test_every_vietnamese_letter_fits_the_bound_on_marks() -> None:
    letters = "ạảãàáâậầấẩẫăắằặẳẵệếềểễẹẻẽèéịỉĩìíộồốổỗơờớợởỡọỏõòóưừứựửữụủũùúỵỷỹỳý"
    for letter in letters + letters.upper():
        assert clean_text(letter) == letter
    assert clean_text("e" + "\u0302\u0323") == "ệ"
    assert MAX_MARKS >= 2


def test_a_line_keeps_one_line_and_a_text_its_paragraphs() -> None:
    assert clean_text("  một\n hai \r\n  ba ") == "một hai ba"
    assert clean_text("một\r\n\r\n\r\n\r\nhai  ba\n", multiline=True) == "một\n\nhai ba"
    assert clean_text("một\r\nhai\rba", multiline=True) == "một\nhai\nba"


def test_the_length_is_counted_after_cleaning() -> None:
    assert clean_text("ab" + "\u200b" * 100, max_length=2) == "ab"
    with pytest.raises(TextRefused) as refused:
        clean_text("abc", max_length=2)
    assert refused.value.code == "text_too_long"


def test_a_refusal_speaks_the_language_active_when_it_is_read() -> None:
    from django.utils import translation

    with pytest.raises(TextRefused) as refused:
        clean_text("\u3164")
    with translation.override("en"):
        english = str(refused.value.message)
    with translation.override("vi"):
        vietnamese = str(refused.value.message)
    assert english != vietnamese


@given(st.text(max_size=80))
def test_cleaning_is_idempotent(text: str) -> None:
    try:
        once = clean_text(text, multiline=True)
    except TextRefused:
        return
    assert clean_text(once, multiline=True) == once


@given(st.text(max_size=80))
def test_cleaned_text_never_carries_a_bidi_control_or_an_invisible_character(text: str) -> None:
    try:
        cleaned = clean_text(text)
    except TextRefused:
        return
    for char in cleaned:
        assert unicodedata.bidirectional(char) not in {"LRE", "RLE", "LRO", "RLO", "PDF"}
        assert unicodedata.bidirectional(char) not in {"LRI", "RLI", "FSI", "PDI"}
        assert char not in "\u200b\u200c\u200e\u200f\u2060\ufeff\u00ad\u3164\u2800"
        assert unicodedata.category(char) not in {"Cc", "Co", "Cn", "Cs"}
        if char == "\u200d":
            continue  # between two emoji only (tested above)
        assert unicodedata.category(char) != "Cf"


@given(st.lists(st.sampled_from(VIETNAMESE), min_size=1, max_size=4))
def test_vietnamese_sentences_are_unchanged(parts: list[str]) -> None:
    text = " ".join(parts)
    assert clean_text(text) == text


def test_the_skeleton_is_unicodes_tr39_skeleton() -> None:
    assert skeleton("𝔭𝒶ỿ𝕡𝕒ℓ") == skeleton("paypal") == "paypal"
    assert skeleton("m") == skeleton("rn")


def test_look_alike_names_share_a_key_and_different_names_do_not() -> None:
    assert name_key("Bình") == name_key(unicodedata.normalize("NFD", "Bình"))
    assert name_key("Аn") == name_key("An") == name_key("an") == name_key("AN")
    assert name_key("Đức") == name_key("Ðức")  # Latin capital eth
    assert name_key("An\u200b") == name_key("An")
    assert name_key("Bình") != name_key("Binh")
    assert name_key("Bình") != name_key("Bính")
