"""Duplicate deals: committed boards dealt identically at every table, and scored against
everyone who held the same cards (docs/duplicate.md)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import services
from games.errors import GameError
from games.models import DuplicateBoard, Round, RoundState
from games.rules import format_cards
from games.rules.fair import FairnessError, deal_from_seeds
from games.selectors import summary_payload, verify_round
from games.selectors.duplicate import (
    compare,
    duplicate_scores,
    others_with_these_cards,
    schedule_totals,
)
from games.services import duplicate
from tests.support.arranging import naive_arrangement
from tests.support.duplicates import Arrange, as_dealt, duplicate_table, play
from tests.support.played import quick_table, run_timers

pytestmark = pytest.mark.django_db


def test_every_board_seed_is_committed_before_any_table_plays_it(schedule):
    boards = list(schedule.boards.all())
    assert [b.number for b in boards] == [1, 2, 3, 4]
    for board in boards:
        assert board.seed_hash == hashlib.sha256(bytes.fromhex(board.seed)).hexdigest()
        assert board.client_seed == f"duplicate:{schedule.pk}:{board.number}"
        assert not board.is_revealed
    assert len({b.seed for b in boards}) == 4


def test_two_tables_deal_each_seat_the_same_cards_of_the_board(people, schedule):
    first = duplicate_table(people[0], schedule, "A")
    second = duplicate_table(people[2], schedule, "B")
    a = play(first, people[0:2])
    b = play(second, people[2:4])
    board = DuplicateBoard.objects.get(schedule=schedule, number=1)
    assert a.board == b.board == board
    expected = [format_cards(h) for h in deal_from_seeds(board.seed, [board.client_seed], 2)]
    assert [p.cards for p in a.players.order_by("position")] == expected
    assert [p.cards for p in b.players.order_by("position")] == expected
    # The rounds hold no copy of the secret: it is the board's, revealed with the board.
    assert a.server_seed == b.server_seed == ""
    assert a.server_seed_hash == board.seed_hash and a.client_seeds == [board.client_seed]


def test_seat_order_not_seat_number_picks_the_hand(people, schedule):
    """Two players in seats 2 and 4 hold hands 1 and 2 of the board, as in seats 1 and 2."""
    first = duplicate_table(people[0], schedule, "A")
    second = duplicate_table(people[2], schedule, "B")
    a = play(first, people[0:2])
    services.sit(people[5], second.pk)  # takes seat 1, then leaves it empty
    services.sit(people[2], second.pk)
    services.sit(people[3], second.pk)
    services.stand(people[5])
    b = run_timers(services.start_round(people[2], second.pk))
    assert [p.position for p in b.players.order_by("position")] == [1, 2]
    assert [p.cards for p in b.players.order_by("position")] == [
        p.cards for p in a.players.order_by("position")
    ]


def test_duplicate_score_is_units_against_the_mean_of_the_other_holders(people, schedule):
    tables = [duplicate_table(people[2 * k], schedule, f"T{k}") for k in range(3)]
    ways: list[list[Arrange]] = [
        [naive_arrangement, naive_arrangement],
        [as_dealt, naive_arrangement],
        [naive_arrangement, as_dealt],
    ]
    rounds = [play(t, people[2 * k : 2 * k + 2], ways[k]) for k, t in enumerate(tables)]
    units = {(r.pk, p.position): p.units for r in rounds for p in r.players.order_by("position")}
    assert all(u is not None for u in units.values())

    scores = duplicate_scores(schedule.pk, 1)
    assert len(scores) == 6
    for result in scores:
        mine = units[(result.round_id, result.slot)]
        others = [
            units[(r.pk, p.position)]
            for r in rounds
            if r.pk != result.round_id
            for p in r.players.order_by("position")[result.slot : result.slot + 1]
        ]
        assert result.units == mine
        assert result.others == 2
        assert result.score == pytest.approx(mine - sum(others) / 2)
        beaten = sum(1 if mine > o else 0.5 if mine == o else 0 for o in others)
        assert result.matchpoints == pytest.approx(beaten / 2)
    # Holders of one hand score against each other: their scores add up to zero.
    for slot in (0, 1):
        assert sum(r.score or 0 for r in scores if r.slot == slot) == pytest.approx(0)


def test_a_lone_holder_has_no_score_yet(people, schedule):
    round_ = play(duplicate_table(people[0], schedule), people[0:2])
    scores = duplicate_scores(schedule.pk, 1)
    assert {r.round_id for r in scores} == {round_.pk}
    assert all(r.others == 0 and r.score is None and r.matchpoints is None for r in scores)


def test_results_compare_only_with_the_same_number_of_players(people, schedule):
    two = play(duplicate_table(people[0], schedule, "A"), people[0:2])
    three = play(duplicate_table(people[2], schedule, "B"), people[2:5])
    assert two.board == three.board
    scores = duplicate_scores(schedule.pk, 1)
    assert len(scores) == 5
    assert all(r.others == 0 for r in scores)


def test_totals_sum_each_players_compared_boards(people, schedule):
    first = duplicate_table(people[0], schedule, "A")
    second = duplicate_table(people[2], schedule, "B")
    for _board in range(2):
        play(first, people[0:2])
        play(second, people[2:4], [as_dealt, naive_arrangement])
    results = [r for n in (1, 2) for r in duplicate_scores(schedule.pk, n)]
    totals = {t.user_id: t for t in schedule_totals(schedule.pk)}
    assert set(totals) == {p.pk for p in people[:4]}
    for user in people[:4]:
        mine = [r for r in results if r.user_id == user.pk]
        assert totals[user.pk].boards == 2 == totals[user.pk].compared
        assert totals[user.pk].score == pytest.approx(sum(r.score or 0 for r in mine))
    ranked = schedule_totals(schedule.pk)
    assert [t.score for t in ranked] == sorted((t.score for t in ranked), reverse=True)


def test_a_table_deals_its_boards_in_order(people, schedule):
    table = duplicate_table(people[0], schedule)
    numbers = [play(table, people[0:2]).board.number for _ in range(3)]  # type: ignore[union-attr]
    assert numbers == [1, 2, 3]


def test_assign_board_makes_the_next_deal_that_board(people, schedule):
    table = duplicate_table(people[0], schedule)
    duplicate.assign_board(table.pk, schedule.pk, 3)
    assert play(table, people[0:2]).board.number == 3  # type: ignore[union-attr]
    table.refresh_from_db()
    assert table.next_board is None
    assert play(table, people[0:2]).board.number == 1  # type: ignore[union-attr]


def test_assign_board_binds_an_ordinary_table(people, schedule):
    table = quick_table(people[0], name="Thường")
    duplicate.assign_board(table.pk, schedule.pk, 2)
    round_ = play(table, people[0:2])
    assert round_.board is not None and round_.board.number == 2


def test_nobody_is_dealt_a_board_twice(people, schedule):
    first = duplicate_table(people[0], schedule, "A")
    second = duplicate_table(people[2], schedule, "B")
    play(first, people[0:2])  # p0 and p1 hold board 1
    duplicate.assign_board(second.pk, schedule.pk, 1)
    again = play(second, [people[2], people[0]])
    assert again.board.number == 2  # type: ignore[union-attr]


def test_a_table_with_every_board_played_says_so(people, fixed_boards):
    small = duplicate.create_schedule(
        name="Hai bàn", boards=1, rules_overrides={"arrange_seconds": 30}
    )
    table = duplicate_table(people[0], small)
    play(table, people[0:2])
    for user in people[0:2]:
        services.sit(user, table.pk)
    with pytest.raises(GameError) as refused:
        services.start_round(people[0], table.pk)
    assert refused.value.code == "no_board_left"
    assert not Round.objects.filter(table=table, state=RoundState.ARRANGING).exists()


def test_a_schedule_binds_only_tables_with_its_rules(people, schedule):
    table = services.create_table(people[0], name="Cổ điển", stake=10, preset="classic")
    with pytest.raises(GameError) as refused:
        duplicate.assign_board(table.pk, schedule.pk, 1)
    assert refused.value.code == "rules_differ"


def test_the_board_seed_stays_secret_until_the_board_is_revealed(people, schedule):
    round_ = play(duplicate_table(people[0], schedule), people[0:2])
    assert summary_payload(round_)["server_seed"] == ""
    with pytest.raises(FairnessError) as not_yet:
        verify_round(round_)
    assert not_yet.value.code == "board_not_revealed"

    duplicate.close_schedule(schedule.pk)
    round_ = Round.objects.get(pk=round_.pk)
    board = round_.board
    assert board is not None and board.is_revealed
    assert summary_payload(round_)["server_seed"] == board.seed
    verify_round(round_)


def test_a_tampered_duplicate_deal_fails_verification(people, schedule):
    round_ = play(duplicate_table(people[0], schedule), people[0:2])
    duplicate.reveal_board(schedule.pk, 1)
    player = round_.players.order_by("position").first()
    assert player is not None
    player.cards = player.cards[1:] + player.cards[:1]
    player.save(update_fields=["cards"])
    with pytest.raises(FairnessError) as failed:
        verify_round(Round.objects.get(pk=round_.pk))
    assert failed.value.code == "deal_mismatch"


def test_a_board_in_play_is_revealed_only_when_its_round_ends(people, schedule):
    table = duplicate_table(people[0], schedule)
    for user in people[0:2]:
        services.sit(user, table.pk)
    live = services.start_round(people[0], table.pk)
    with pytest.raises(GameError) as refused:
        duplicate.reveal_board(schedule.pk, 1)
    assert refused.value.code == "board_in_play"

    duplicate.close_schedule(schedule.pk)
    boards = {b.number: b.is_revealed for b in DuplicateBoard.objects.filter(schedule=schedule)}
    assert boards == {1: False, 2: True, 3: True, 4: True}
    for rp in live.players.select_related("user"):
        services.submit_arrangement(rp.user, live.pk, naive_arrangement(rp.cards))
    run_timers(live)
    assert DuplicateBoard.objects.get(schedule=schedule, number=1).is_revealed


def test_a_closed_schedule_deals_no_more(people, schedule):
    table = duplicate_table(people[0], schedule)
    duplicate.close_schedule(schedule.pk)
    for user in people[0:2]:
        services.sit(user, table.pk)
    with pytest.raises(GameError) as refused:
        services.start_round(people[0], table.pk)
    assert refused.value.code == "no_board_left"


def test_others_with_these_cards_lists_only_settled_holders_of_my_hand(people, schedule):
    first = duplicate_table(people[0], schedule, "A")
    second = duplicate_table(people[2], schedule, "B")
    third = duplicate_table(people[4], schedule, "C")
    mine = play(first, people[0:2])
    theirs = play(second, people[2:4], [as_dealt, naive_arrangement])
    for user in people[4:6]:
        services.sit(user, third.pk)
    live = services.start_round(people[4], third.pk)  # board 1, still being arranged
    assert live.board == mine.board

    holders = others_with_these_cards(mine, people[0])
    assert holders is not None and holders.mine is not None
    assert holders.mine.user_id == people[0].pk and holders.slot == 0
    assert [(r.round_id, r.user_id) for r in holders.others] == [(theirs.pk, people[2].pk)]
    held = theirs.players.get(user=people[2])
    assert holders.others[0].arrangement == held.arrangement
    # Someone who did not play the round gets nothing from it.
    assert others_with_these_cards(mine, people[4]) is None
    # Nor does a player whose round of the board is still going.
    assert others_with_these_cards(live, people[4]) is None


@given(st.lists(st.integers(min_value=-400, max_value=400), min_size=2, max_size=12))
def test_the_holders_of_a_hand_score_zero_between_them(units: list[int]) -> None:
    """Whatever they scored, one hand's holders' duplicate scores add up to 0 and their
    matchpoints average one half: the comparison creates no points."""
    results = [compare(u, units[:k] + units[k + 1 :]) for k, u in enumerate(units)]
    assert sum(score or 0 for score, _ in results) == pytest.approx(0, abs=1e-6)
    assert sum(mp or 0 for _, mp in results) / len(units) == pytest.approx(0.5)
    best = max(units)
    for u, (score, mp) in zip(units, results, strict=True):
        assert score is not None and mp is not None and 0 <= mp <= 1
        if u == best and units.count(best) == 1:
            assert mp == 1 and score > 0


def test_a_lone_result_is_compared_with_nobody() -> None:
    assert compare(5, []) == (None, None)
