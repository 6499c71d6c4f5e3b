"""Hand evaluation: categories, tie-breaks, the cross-size foul test, exhaustive counts."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from games.rules.cards import Card, parse_cards
from games.rules.hands import Category, category_of, eval3, eval5, evaluator5, is_foul


def v5(text: str, preset: str = "portal") -> int:
    return eval5(parse_cards(text), preset)


def v3(text: str) -> int:
    return eval3(parse_cards(text))


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("AS KS QS JS TS", Category.STRAIGHT_FLUSH),
        ("AS AC AD AH 2S", Category.FOUR_ACES),
        ("9S 9C 9D 9H 2S", Category.FOUR_OF_A_KIND),
        ("9S 9C 9D 2H 2S", Category.FULL_HOUSE),
        ("AS 9S 7S 4S 2S", Category.FLUSH),
        ("AS 2C 3D 4H 5S", Category.STRAIGHT),
        ("9S 9C 9D 3H 2S", Category.THREE_OF_A_KIND),
        ("9S 9C 3D 3H 2S", Category.TWO_PAIR),
        ("9S 9C 4D 3H 2S", Category.PAIR),
        ("AS KC 4D 3H 2S", Category.HIGH_CARD),
        ("QS KC AD 2H 3S", Category.HIGH_CARD),  # straights never wrap
    ],
)
def test_five_card_hands_get_their_category(cards: str, category: Category) -> None:
    assert category_of(v5(cards)) is category


def test_four_aces_are_ordinary_quads_in_classic() -> None:
    assert category_of(v5("AS AC AD AH 2S", "classic")) is Category.FOUR_OF_A_KIND
    assert v5("AS AC AD AH 2S", "classic") > v5("KS KC KD KH AS", "classic")
    assert v5("AS AC AD AH 2S", "classic") < v5("6S 5S 4S 3S 2S", "classic")


def test_portal_four_aces_beat_every_straight_flush() -> None:
    assert v5("AS AC AD AH 2S") > v5("AH KH QH JH TH")


def test_portal_straight_flush_order_is_royal_then_wheel_then_by_top_card() -> None:
    royal, wheel = v5("AH KH QH JH TH"), v5("5H 4H 3H 2H AH")
    king_high, six_high = v5("KS QS JS TS 9S"), v5("6S 5S 4S 3S 2S")
    assert royal > wheel > king_high > six_high


def test_classic_straight_flush_order_is_by_top_card_with_the_wheel_lowest() -> None:
    royal, wheel = v5("AH KH QH JH TH", "classic"), v5("5H 4H 3H 2H AH", "classic")
    six_high = v5("6S 5S 4S 3S 2S", "classic")
    assert royal > six_high > wheel


def test_the_wheel_is_the_lowest_straight_and_broadway_the_highest() -> None:
    assert v5("5S 4C 3D 2H AS") < v5("6S 5C 4D 3H 2S") < v5("AS KC QD JH TS")


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("KS KC KD KH 3S", "QS QC QD QH AS"),  # quad rank first
        ("9S 9C 9D 2H 2S", "8S 8C 8D AH AS"),  # full house: trips rank first
        ("9S 9C 9D AH AS", "9S 9C 9D KH KS"),  # then pair rank (only across decks)
        ("AS 9S 7S 4S 3S", "AH 9H 7H 4H 2H"),  # flush: last card decides
        ("9S 9C 9D AH 2S", "9S 9C 9D KH QS"),  # trips kickers
        ("9S 9C 3D 3H 4S", "9S 9C 3D 3H 2S"),  # two pair kicker
        ("TS TC 3D 3H 2S", "9S 9C 8D 8H AS"),  # high pair first
        ("9S 9C 5D 5H 2S", "9S 9C 4D 4H AS"),  # then low pair
        ("9S 9C KD 3H 2S", "9S 9C QD JH TS"),  # pair kickers
        ("AS KC 4D 3H 2S", "AS QC JD TH 8S"),  # high card lexicographic
    ],
)
def test_tie_breaks_order_hands_of_one_category(stronger: str, weaker: str) -> None:
    assert v5(stronger) > v5(weaker)


def test_suits_never_decide() -> None:
    assert v5("AS KS 9C 7D 3H") == v5("AH KD 9S 7C 3S")
    assert v5("AS 9S 7S 4S 3S") == v5("AH 9H 7H 4H 3H")
    assert v5("KS QS JS TS 9S") == v5("KH QH JH TH 9H")
    assert v3("AS AH 2C") == v3("AD AC 2H")


def test_three_card_chi_counts_only_trips_pairs_and_high_cards() -> None:
    assert category_of(v3("2S 2C 2D")) is Category.THREE_OF_A_KIND
    assert category_of(v3("AS AC KD")) is Category.PAIR
    assert category_of(v3("QS KS AS")) is Category.HIGH_CARD
    assert v3("2S 2C 2D") > v3("AS AC KD") > v3("QS KS AS")
    assert v3("AS AC KD") > v3("AS AC QD")


def test_a_three_card_chi_stronger_than_the_middle_on_the_shorter_list_is_a_foul() -> None:
    # docs/rules.md#three-card example: chi 2 A K 9 7 3 vs chi 3 A K Q.
    assert v3("AD KC QH") > v5("AS KH 9C 7D 3S")
    assert is_foul(
        parse_cards("2S 2C 2D 2H 3S"), parse_cards("AS KH 9C 7D 3C"), parse_cards("AD KC QH")
    )


def test_a_three_card_chi_equal_on_the_shorter_list_is_not_stronger() -> None:
    assert v3("AD KC QH") < v5("AS KH QC 7D 3S")
    assert v3("9D 9C AH") < v5("9S 9H AC 7D 3S")
    assert not is_foul(
        parse_cards("2S 2C 2D 2H 3S"), parse_cards("AS KH QC 7D 3C"), parse_cards("AD KC QH")
    )


def test_equal_chi_are_not_a_foul() -> None:
    assert not is_foul(
        parse_cards("AS KH QC 7D 3C"), parse_cards("AD KC QH 7S 3S"), parse_cards("4S 5C 6H")
    )


def test_a_middle_chi_stronger_than_the_first_is_a_foul() -> None:
    assert is_foul(
        parse_cards("AS AH QC 7D 3C"), parse_cards("2D 2C 2H 7S 3S"), parse_cards("4S 5C 6H")
    )


def test_four_aces_in_the_middle_over_a_straight_flush_is_a_foul_only_in_portal() -> None:
    chi1, chi2, chi3 = (
        parse_cards("KH QH JH TH 9H"),
        parse_cards("AS AC AD AH 2S"),
        parse_cards("3S 4S 5S"),
    )
    assert is_foul(chi1, chi2, chi3, "portal")
    assert not is_foul(chi1, chi2, chi3, "classic")


TEXTBOOK_5 = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3744,
    Category.FLUSH: 5108,
    Category.STRAIGHT: 10200,
    Category.THREE_OF_A_KIND: 54912,
    Category.TWO_PAIR: 123552,
    Category.PAIR: 1098240,
    Category.HIGH_CARD: 1302540,
}


def _count_categories(preset: str) -> Counter[Category]:
    ev = evaluator5(preset)
    deck = [Card(i) for i in range(52)]
    values = Counter(ev(five) for five in combinations(deck, 5))
    counts: Counter[Category] = Counter()
    for value, n in values.items():
        counts[category_of(value)] += n
    return counts


def test_all_five_card_hands_give_the_textbook_counts_in_classic() -> None:
    assert _count_categories("classic") == TEXTBOOK_5


def test_portal_splits_the_48_four_aces_hands_out_of_the_quads() -> None:
    expected = {**TEXTBOOK_5, Category.FOUR_OF_A_KIND: 624 - 48, Category.FOUR_ACES: 48}
    assert _count_categories("portal") == expected


def test_all_three_card_hands_give_the_textbook_counts() -> None:
    deck = [Card(i) for i in range(52)]
    counts = Counter(category_of(eval3(three)) for three in combinations(deck, 3))
    assert counts == {Category.THREE_OF_A_KIND: 52, Category.PAIR: 3744, Category.HIGH_CARD: 18304}


def test_the_scale_has_7462_distinct_classic_values() -> None:
    ev = evaluator5("classic")
    deck = [Card(i) for i in range(52)]
    assert len({ev(five) for five in combinations(deck, 5)}) == 7462


@pytest.mark.parametrize("preset", ["portal", "classic"])
def test_each_presets_tables_value_every_five_card_hand_as_the_reference_evaluation_does(preset):
    """The tables are built for one preset and adjusted for the other where the presets
    differ (a straight flush, four aces); every hand must still match a build of its own."""
    from itertools import combinations, combinations_with_replacement

    from games.rules.hands import _TABLES, _product, _rank_value5

    nonflush, flush = _TABLES[preset]
    expected_nonflush = {
        _product(asc): _rank_value5(asc[::-1], False, preset)
        for asc in combinations_with_replacement(range(13), 5)
        if asc[0] != asc[4]
    }
    expected_flush = {
        _product(asc): _rank_value5(asc[::-1], True, preset) for asc in combinations(range(13), 5)
    }
    assert nonflush == expected_nonflush
    assert flush == expected_flush
