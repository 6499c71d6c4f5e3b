"""Instant wins (section 6): detection, strength order, tie-breaks, presets."""

from __future__ import annotations

from games.rules.cards import parse_cards
from games.rules.instant import find_instant
from games.rules.presets import Rules

PORTAL = Rules.preset("portal")
CLASSIC = Rules.preset("classic")


def kind(cards: str, rules: Rules = PORTAL, chi: str | None = None) -> str | None:
    arrangement = None if chi is None else [parse_cards(part) for part in chi.split("|")]
    found = find_instant(parse_cards(cards), rules, arrangement)
    return None if found is None else found.kind


def chi_cards(chi: str) -> str:
    return chi.replace("|", " ")


def test_an_ordinary_hand_has_no_instant_win() -> None:
    assert kind("AS AC KS KC 2C QC QH JS JC 3C TS 9S 8C") is None


def test_a_dragon_needs_thirteen_different_ranks() -> None:
    assert kind("2S 3C 4D 5H 6S 7C 8D 9H TS JC QD KH AS") == "dragon"
    assert kind("2S 3C 4D 5H 6S 7C 8D 9H TS JC QD KH KS") is None


def test_a_one_suit_dragon_is_a_dragon_flush_in_portal_and_a_dragon_in_classic() -> None:
    spades = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    assert kind(spades) == "dragon_flush"
    assert kind(spades, CLASSIC) == "dragon"


def test_disabling_the_strongest_kind_falls_back_to_the_next_one() -> None:
    rules = PORTAL.with_overrides({"instant": {"dragon_flush": 0}})
    found = find_instant(parse_cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"), rules)
    assert found is not None and (found.kind, found.payout) == ("dragon", 13)


def test_five_pairs_and_trips_also_count_as_six_pairs_but_take_the_stronger_kind() -> None:
    assert kind("2S 2C 3S 3C 4S 4C 5S 5C 6S 6C 7S 7C 7D") == "five_pairs_trips"
    rules = PORTAL.with_overrides({"instant": {"five_pairs_trips": 0}})
    assert kind("2S 2C 3S 3C 4S 4C 5S 5C 6S 6C 7S 7C 7D", rules) == "six_pairs"


def test_five_pairs_and_two_separate_trips_is_not_five_pairs_trips() -> None:
    # 3 + 3 + 2 + 2 + 2 + 1 = 13: only four pairs besides the trips.
    assert kind("2S 2C 2D 3S 3C 3D 4S 4C 5S 5C 6S 6C AS") is None


def test_quads_split_lets_four_of_a_kind_be_two_pairs() -> None:
    hand = "2S 2C 2D 2H 3S 3C 4S 4C 5S 5C 6S 6C AS"
    assert kind(hand) == "six_pairs"
    assert kind(hand, PORTAL.with_overrides({"quads_split": False})) is None


def test_quads_split_lets_four_of_a_kind_be_trips_for_four_trips() -> None:
    hand = "2S 2C 2D 2H 3S 3C 3D 4S 4C 4D 5S 5C 5D"
    assert kind(hand, CLASSIC) == "four_trips"
    assert kind(hand, CLASSIC.with_overrides({"quads_split": False})) is None


def test_color_kinds_count_red_and_black() -> None:
    assert kind("2H 2D 3H 3D 4H 4D 5H 5D 6H 6D 8H TH QH", CLASSIC) == "all_one_color"
    assert kind("2H 2D 3H 3D 4H 4D 5H 5D 6H 6D 8H TH QS", CLASSIC) == "twelve_one_color"
    assert kind("2S 2C 3S 3C 4S 4C 5S 5C 6S 6C 8S TH QD", CLASSIC) is None  # 11 black
    assert kind("2H 2D 3H 3D 4H 4D 5H 5D 6H 6D 8H TH QH") is None  # portal has no color kinds


THREE_FLUSHES = "AH JH 9H 6H 4H | KD TD 8D 5D 3D | QS 7S 3S"


def test_arrangement_kinds_need_the_arrangement() -> None:
    assert kind(chi_cards(THREE_FLUSHES), chi=THREE_FLUSHES) == "three_flushes"
    assert kind(chi_cards(THREE_FLUSHES)) is None


def test_a_foul_arrangement_shows_no_instant_win() -> None:
    swapped = "KD TD 8D 5D 3D | AH JH 9H 6H 4H | QS 7S 3S"
    assert kind(chi_cards(swapped), chi=swapped) is None


def test_a_straight_flush_counts_as_a_straight_and_as_a_flush() -> None:
    chi = "9H TH JH QH KH | 4S 5S 6S 7S 8D | QD KS AS"
    assert kind(chi_cards(chi), chi=chi) == "three_straights"
    chi = "9H TH JH QH KH | 2D 5D 6D 7D 8D | QS 7S 3S"
    assert kind(chi_cards(chi), chi=chi) == "three_flushes"


def test_three_card_straights_do_not_wrap() -> None:
    chi = "9S TS JS QS KD | 4S 5S 6S 7S 8D | KC AC 2D"
    assert kind(chi_cards(chi), chi=chi) is None


def test_three_straight_flushes_is_classic_only_and_outranks_three_flushes() -> None:
    chi = "9H TH JH QH KH | 4S 5S 6S 7S 8S | QD KD AD"
    assert kind(chi_cards(chi), CLASSIC, chi) == "three_straight_flushes"
    assert kind(chi_cards(chi), PORTAL, chi) == "three_flushes"


def test_instant_comparison_is_by_kind_then_tie_break_and_antisymmetric() -> None:
    six_low = find_instant(parse_cards("2S 2C 3S 3C 4S 4C 5S 5C 6S 6C 7S 7C AS"), PORTAL)
    six_high = find_instant(parse_cards("8S 8C 9S 9C TS TC JS JC QS QC KS KC AC"), PORTAL)
    dragon = find_instant(parse_cards("2S 3C 4D 5H 6S 7C 8D 9H TS JC QD KH AS"), PORTAL)
    assert six_low is not None and six_high is not None and dragon is not None
    assert six_high.compare(six_low) == 1 and six_low.compare(six_high) == -1
    assert dragon.compare(six_high) == 1 and six_high.compare(dragon) == -1
    assert dragon.compare(dragon) == 0


def test_instant_wins_have_names_in_both_languages() -> None:
    found = find_instant(parse_cards("2S 3C 4D 5H 6S 7C 8D 9H TS JC QD KH AS"), PORTAL)
    assert found is not None
    assert (found.name_vi, found.name_en) == ("Sảnh rồng", "Dragon")
