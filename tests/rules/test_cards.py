"""Card parsing, formatting and names."""

from __future__ import annotations

import random

import pytest

from games.rules.cards import (
    Card,
    card_name_en,
    card_name_vi,
    format_card,
    full_deck,
    parse_card,
    parse_cards,
    shuffled_deck,
)
from games.rules.errors import CardError


def test_cards_are_rank_times_four_plus_suit() -> None:
    assert parse_card("2S") == 0
    assert parse_card("2H") == 3
    assert parse_card("AS") == 48
    assert parse_card("AH") == 51


@pytest.mark.parametrize("text", ["TD", "10D", "td", "T♦", " 10d "])
def test_ten_of_diamonds_has_several_spellings(text: str) -> None:
    assert parse_card(text) == parse_card("TD")


@pytest.mark.parametrize("text", ["", "1S", "AX", "11D", "A", "S", "ZZ"])
def test_unknown_cards_are_rejected_with_a_code(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert info.value.code == "card_unknown"


def test_formatting_round_trips_every_card() -> None:
    for card in full_deck():
        assert parse_card(format_card(card)) == card
        assert parse_card(format_card(card, unicode=True)) == card


def test_parse_cards_accepts_a_spaced_or_comma_separated_string() -> None:
    assert parse_cards("AS, KD 2C") == (Card(48), Card(46), Card(1))


def test_cards_have_accessible_names_in_both_languages() -> None:
    assert card_name_en(parse_card("AS")) == "Ace of spades"
    assert card_name_vi(parse_card("AS")) == "Át bích"
    assert card_name_vi(parse_card("TH")) == "Mười cơ"


def test_shuffled_deck_uses_the_given_random_source() -> None:
    deck_a = shuffled_deck(random.Random(7))
    assert deck_a == shuffled_deck(random.Random(7))
    assert sorted(deck_a) == full_deck()
    assert deck_a != full_deck()
