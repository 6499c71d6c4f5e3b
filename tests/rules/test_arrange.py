"""Auto-arrange: legal, instant-aware, distinct suggestions; best in hindsight; the table."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.arrange import (
    Suggestion,
    appraise,
    best_in_hindsight,
    naive_arrangement,
    suggest,
    win_probability,
)
from games.rules.arrange.odds import _field
from games.rules.cards import Card, parse_cards
from games.rules.hands import Category, category_of, eval3, eval5, is_foul
from games.rules.presets import Rules
from games.rules.scoring import PlayerInput, Status, settle

PORTAL = Rules.preset("portal")
CLASSIC = Rules.preset("classic")

hands13 = st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True).map(
    lambda cs: [Card(c) for c in cs]
)


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def categories(s: Suggestion, preset: str = "portal") -> tuple[Category, Category, Category]:
    c1, c2, c3 = s.chi
    return (
        category_of(eval5(c1, preset)),
        category_of(eval5(c2, preset)),
        category_of(eval3(c3)),
    )


def assert_legal(hand: Sequence[Card], s: Suggestion, preset: str) -> None:
    assert [len(c) for c in s.chi] == [5, 5, 3]
    assert sorted(c for chi in s.chi for c in chi) == sorted(hand)
    assert not is_foul(*s.chi, preset)


@settings(max_examples=40, deadline=None)
@given(hand=hands13, preset=st.sampled_from(["portal", "classic"]))
def test_every_suggestion_is_a_permutation_of_the_hand_and_never_a_foul(
    hand: list[Card], preset: str
) -> None:
    suggestions = suggest(hand, Rules.preset(preset))
    assert 1 <= len(suggestions) <= 4
    for s in suggestions:
        assert_legal(hand, s, preset)


def brute_force_best(hand: Sequence[Card], rules: Rules) -> float:
    """The most expected units over every legal split, scored one by one (no pruning)."""
    field = _field(rules, 3)
    best = float("-inf")
    for chi1 in combinations(hand, 5):
        v1 = eval5(chi1, rules.name)
        rest = [c for c in hand if c not in chi1]
        for chi2 in combinations(rest, 5):
            v2 = eval5(chi2, rules.name)
            v3 = eval3([c for c in rest if c not in chi2])
            if v1 >= v2 >= v3:
                records = [odds.record(v) for odds, v in zip(field.chi, (v1, v2, v3), strict=True)]
                best = max(best, field.value(*records))
    return 3 * best


@settings(max_examples=6, deadline=None)
@given(hand=hands13, preset=st.sampled_from(["portal", "classic"]))
def test_the_pruned_search_finds_the_same_best_as_trying_every_split(
    hand: list[Card], preset: str
) -> None:
    rules = Rules.preset(preset).with_overrides(
        {"instant": dict.fromkeys(Rules.preset(preset).instant, 0)}
    )
    assert suggest(hand, rules, n=0)[0].ev == pytest.approx(brute_force_best(hand, rules), abs=1e-9)


def test_the_search_is_exact_on_a_hand_of_pairs_without_a_flush() -> None:
    # Interchangeable equal-rank cards are searched once; this hand has many of them.
    hand = cards("AS AC KD KH 9S 9C 7D 5H 5S 4C 3D 3H 2S")
    rules = PORTAL.with_overrides({"instant": {"six_pairs": 0}})
    assert suggest(hand, rules, n=0)[0].ev == pytest.approx(brute_force_best(hand, rules), abs=1e-9)


@settings(max_examples=25, deadline=None)
@given(hand=hands13)
def test_suggestions_are_distinct_and_best_first(hand: list[Card]) -> None:
    suggestions = suggest(hand, PORTAL)
    splits = {tuple(frozenset(c) for c in s.chi) for s in suggestions}
    assert len(splits) == len(suggestions)
    if all(s.instant is None for s in suggestions):
        evs = [s.ev for s in suggestions]
        assert evs == sorted(evs, reverse=True)


@settings(max_examples=25, deadline=None)
@given(hand=hands13)
def test_win_probabilities_are_probabilities_and_ev_follows_from_them(hand: list[Card]) -> None:
    # With every bonus 1 and no scoop multiplier, a chi is worth +1 won, -1 lost, 0 tied,
    # so the expected units against 3 opponents are 3 * sum(win - lose).
    flat = PORTAL.with_overrides(
        {
            "bonus": dict.fromkeys(PORTAL.bonus, 1),
            "scoop_one": 1,
            "scoop_all": 1,
            "instant": dict.fromkeys(PORTAL.instant, 0),
        }
    )
    for s in suggest(hand, flat):
        for win, tie in zip(s.win, s.tie, strict=True):
            assert 0.0 <= win <= 1.0
            assert 0.0 <= tie <= 1.0
            assert win + tie <= 1.0 + 1e-9
        expected = 3 * sum(2 * w + t - 1 for w, t in zip(s.win, s.tie, strict=True))
        assert s.ev == pytest.approx(expected, abs=1e-9)


def test_stronger_chi_values_never_have_lower_win_probability() -> None:
    ladder = ["7S 5C 4D 3H 2S", "AS AC 4D 3H 2S", "AS AC KD KH 2S", "9S 9C 9D 3H 2S",
              "9S TC JD QH KS", "AS 9S 7S 4S 2S", "9S 9C 9D 2H 2S", "9S 9C 9D 9H 2S"]  # fmt: skip
    for chi in (0, 1):
        wins = [win_probability(PORTAL, chi, eval5(parse_cards(t), "portal"))[0] for t in ladder]
        assert wins == sorted(wins)
    chi3 = ["7S 5C 2D", "AS KC QD", "2S 2C 3D", "AS AC KD", "2S 2C 2D", "AS AC AD"]
    wins = [win_probability(PORTAL, 2, eval3(parse_cards(t)))[0] for t in chi3]
    assert wins == sorted(wins)
    assert wins[-1] > 0.99


def test_appraise_prices_a_given_arrangement_like_the_suggestion_that_chose_it() -> None:
    hand = cards("AS JS 9S 6S 4S KH KD 7C 7H 3C QC QD QH")
    best = suggest(hand, PORTAL)[0]
    assert appraise(best.chi, PORTAL) == best


def test_trips_go_to_chi_3_behind_two_flushes() -> None:
    # Using the queen of hearts in the heart flush would leave only a pair for chi 3.
    hand = cards("AS JS 9S 6S 4S KH TH 8H 5H 2H QC QD QH")
    best = suggest(hand, PORTAL)[0]
    assert categories(best) == (Category.FLUSH, Category.FLUSH, Category.THREE_OF_A_KIND)
    assert sorted(best.chi[2]) == sorted(cards("QC QD QH"))
    assert best.win[2] > 0.95


def test_a_full_house_and_a_straight_flush_take_chi_2_and_chi_1() -> None:
    hand = cards("AS KS QS JS TS 9H 9D 9C 2S 2D 3C 3H 4D")
    best = suggest(hand, PORTAL)[0]
    assert categories(best) == (Category.STRAIGHT_FLUSH, Category.FULL_HOUSE, Category.PAIR)
    assert best.win[0] > 0.95
    assert best.ev > 10


def test_three_flushes_come_first_with_the_instant_key() -> None:
    hand = cards("AS 9S 7S 4S 2S KH QH 8H 6H 3H JD 5D 4D")
    first = suggest(hand, PORTAL)[0]
    assert first.instant == "three_flushes"
    assert all(len({c & 3 for c in chi}) == 1 for chi in first.chi)
    assert first.ev == 3 * PORTAL.instant["three_flushes"]
    assert_legal(hand, first, "portal")


def test_three_straights_come_first_with_the_instant_key() -> None:
    hand = cards("2S 3C 4D 5H 6S 9C TD JH QS KC 7D 8H 9S")
    suggestions = suggest(hand, PORTAL)
    assert suggestions[0].instant == "three_straights"
    assert_legal(hand, suggestions[0], "portal")
    assert all(s.instant is None for s in suggestions[1:])


def test_three_straight_flushes_beat_three_flushes_in_classic() -> None:
    hand = cards("2S 3S 4S 5S 6S 8H 9H TH JH QH JD QD KD")
    first = suggest(hand, CLASSIC)[0]
    assert first.instant == "three_straight_flushes"
    assert first.ev == 3 * CLASSIC.instant["three_straight_flushes"]


def test_a_disabled_instant_kind_is_not_claimed() -> None:
    hand = cards("AS 9S 7S 4S 2S KH QH 8H 6H 3H JD 5D 4D")
    rules = PORTAL.with_overrides({"instant": {"three_flushes": 0}})
    assert all(s.instant is None for s in suggest(hand, rules))


def test_six_pairs_mark_every_suggestion_and_are_priced_as_the_payout() -> None:
    hand = cards("AS AC KD KH 9S 9C 7D 7H 5S 5C 3D 3H 2S")
    suggestions = suggest(hand, PORTAL)
    assert len(suggestions) > 1
    for s in suggestions:
        assert s.instant == "six_pairs"
        assert s.ev == 3 * PORTAL.instant["six_pairs"]
        assert_legal(hand, s, "portal")


def test_thirteen_spades_are_a_dragon_flush_on_every_suggestion() -> None:
    # Three flushes are there too, but the stronger arrangement-free kind is what is paid.
    hand = cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    suggestions = suggest(hand, PORTAL)
    assert [s.instant for s in suggestions] == ["dragon_flush"] * len(suggestions)
    assert suggestions[0].ev == 3 * PORTAL.instant["dragon_flush"]


def test_a_dragon_is_still_arranged_legally() -> None:
    hand = cards("2S 3C 4D 5H 6S 7C 8D 9H TS JC QD KH AS")
    for s in suggest(hand, PORTAL):
        assert s.instant == "dragon"
        assert_legal(hand, s, "portal")


def test_auto_arrange_rejects_a_wrong_count_or_a_repeated_card() -> None:
    with pytest.raises(ValueError, match="13 cards"):
        suggest(cards("AS KS QS"), PORTAL)
    with pytest.raises(ValueError, match="twice"):
        suggest([Card(0)] * 13, PORTAL)


def test_n_counts_the_alternatives_and_opponents_scale_ev() -> None:
    hand = cards("AS JS 9S 6S 4S KH TH 8H 5H 2H QC QD QH")
    assert len(suggest(hand, PORTAL, n=0)) == 1
    assert 2 <= len(suggest(hand, PORTAL, n=3)) <= 4
    with pytest.raises(ValueError, match="at least 0"):
        suggest(hand, PORTAL, n=-1)
    with pytest.raises(ValueError, match="1 to 3 opponents"):
        suggest(hand, PORTAL, opponents=4)
    # Without scoops a two-player quote is a third of the full-table quote.
    flat = PORTAL.with_overrides({"scoop_one": 1, "scoop_all": 1})
    one, three = suggest(hand, flat, n=0, opponents=1)[0], suggest(hand, flat, n=0)[0]
    assert one.ev * 3 == pytest.approx(three.ev)


def test_naive_arrangement_takes_the_strongest_five_cards_first() -> None:
    hand = cards("AS KS QS JS TS 9H 9D 9C 2S 2D 3C 3H 4D")
    chi1, chi2, chi3 = naive_arrangement(hand, "portal")
    assert category_of(eval5(chi1, "portal")) is Category.STRAIGHT_FLUSH
    assert category_of(eval5(chi2, "portal")) is Category.FULL_HOUSE
    assert not is_foul(chi1, chi2, chi3)


# --- best in hindsight


def _deal(seed: int) -> list[list[Card]]:
    deck = [Card(i) for i in range(52)]
    random.Random(seed).shuffle(deck)
    return [deck[i * 13 : i * 13 + 13] for i in range(4)]


def _units(rules: Rules, me: PlayerInput, opponents: Sequence[PlayerInput]) -> int:
    return settle(rules, 1, [me, *opponents]).player(me.id).units


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(["portal", "classic"]))
def test_best_in_hindsight_scores_at_least_the_submitted_arrangement(
    seed: int, preset: str
) -> None:
    rules = Rules.preset(preset)
    mine, *others = _deal(seed)
    opponents = [
        PlayerInput("b", tuple(others[0]), suggest(others[0], rules, n=0)[0].chi),
        PlayerInput("c", tuple(others[1]), naive_arrangement(others[1], preset)),
        PlayerInput("d", tuple(others[2]), suggest(others[2], rules, n=0)[0].chi),
    ]
    submitted = naive_arrangement(mine, preset)
    hindsight = best_in_hindsight(mine, opponents, rules)
    assert_legal(mine, hindsight, preset)
    assert hindsight.ev >= _units(rules, PlayerInput("a", tuple(mine), submitted), opponents)
    # ev is the exact settlement of that arrangement.
    assert hindsight.ev == _units(rules, PlayerInput("a", tuple(mine), hindsight.chi), opponents)


def test_best_in_hindsight_handles_players_who_left_or_did_not_arrange() -> None:
    mine, b, c, d = _deal(7)
    opponents = [
        PlayerInput("b", tuple(b), None, Status.UNARRANGED),
        PlayerInput("c", tuple(c), naive_arrangement(c, "portal"), Status.LEFT, 1),
        PlayerInput("d", tuple(d), naive_arrangement(d, "portal")),
    ]
    hindsight = best_in_hindsight(mine, opponents, PORTAL)
    assert_legal(mine, hindsight, "portal")
    assert hindsight.ev == _units(PORTAL, PlayerInput("a", tuple(mine), hindsight.chi), opponents)
    for submitted in suggest(mine, PORTAL):
        assert hindsight.ev >= _units(
            PORTAL, PlayerInput("a", tuple(mine), submitted.chi), opponents
        )


def test_best_in_hindsight_finds_the_one_arrangement_that_beats_a_known_opponent() -> None:
    # The opponent's full houses take chi 1 and chi 2 whatever I do; chi 3 is a pair of kings,
    # which only my queens as trips beat (+3). Anything else loses all three chi (scooped).
    mine = cards("AS JS 9S 6S 4S KH TH 8H 5H 2H QC QD QH")
    opponent = PlayerInput.make(
        "b",
        chi=[["AC", "AD", "AH", "8S", "8C"], ["2C", "2D", "2S", "5S", "5C"], ["KS", "KC", "6D"]],
    )
    hindsight = best_in_hindsight(mine, [opponent], PORTAL)
    assert sorted(hindsight.chi[2]) == sorted(cards("QC QD QH"))
    assert hindsight.win == (0.0, 0.0, 1.0)
    assert hindsight.ev == -1 - 2 + 3


def test_best_in_hindsight_matches_settling_every_legal_arrangement() -> None:
    mine, theirs, *_ = _deal(11)
    opponent = PlayerInput("b", tuple(theirs), suggest(theirs, PORTAL, n=0)[0].chi)
    best = float("-inf")
    seen = set()
    for chi1 in combinations(mine, 5):
        rest = [c for c in mine if c not in chi1]
        for chi2 in combinations(rest, 5):
            chi3 = tuple(c for c in rest if c not in chi2)
            values = (eval5(chi1, "portal"), eval5(chi2, "portal"), eval3(chi3))
            if not values[0] >= values[1] >= values[2] or values in seen:
                continue
            seen.add(values)
            me = PlayerInput("a", tuple(mine), (chi1, chi2, chi3))
            best = max(best, _units(PORTAL, me, [opponent]))
    assert best_in_hindsight(mine, [opponent], PORTAL).ev == best
