"""Arenas (docs/tournaments.md, Arena): joining and refunds, the queue and its pairing, one
duplicate board a table, points fixed at the settlement from the board's duplicate
comparison with the fire, the live standings, the end with prizes from the pool."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from games import selectors as games_selectors
from games import services as games_services
from games.models import DuplicateBoard, Round, RoundPlayer, Seat, StakesIn, Table
from games.selectors import duplicate as games_duplicate
from ledger import selectors as ledger_selectors
from ledger.audit import run_checks
from tests.games.conftest import fixed_boards  # noqa: F401
from tests.moderation.conftest import _staff
from tests.support.arenas import present, seated_tables
from tournaments import selectors
from tournaments.arena import rules as arena_rules
from tournaments.arena import services as arena
from tournaments.errors import TournamentError
from tournaments.models import ArenaResult, Entry, EntryState, State, Tournament

from .conftest import play_round

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fixed_boards", "no_pair_wait"),
]


@pytest.fixture
def six(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("an", "binh", "chi", "dung", "em", "giang")]


def running_arena(users: list[Any], buy_in: int = 100, minutes: int = 3) -> Tournament:
    t = arena.create_arena(users[0], name="Đấu trường", minutes=minutes, buy_in=buy_in)
    for user in users[1:]:
        arena.join(user, t.pk)
    present(t, *users)
    arena.start_now(users[0], t.pk)
    t.refresh_from_db()
    return t


def play_boards(t: Tournament) -> list[Round]:
    """Every open table of the arena plays its board; its players go back to the queue
    (the summary's timer run at once), which is paired again."""
    played = []
    for table_id in list(seated_tables(t)):
        round_ = play_round(table_id)
        assert round_ is not None
        played.append(round_)
        assert arena.finish_table(t.pk, table_id)
    return played


# --- Joining, withdrawing, starting ----------------------------------------------------


def test_joining_pays_the_buy_in_into_the_pool_and_withdrawing_before_the_start_refunds_it(
    six: list[Any],
) -> None:
    from tournaments import services

    t = arena.create_arena(six[0], name="Chiều", minutes=5, buy_in=300)
    arena.join(six[1], t.pk)
    assert ledger_selectors.pool_balance(t.pk) == 600
    assert ledger_selectors.balance(six[1]) == 10_000 - 300
    services.unregister(six[1], t.pk)
    assert ledger_selectors.balance(six[1]) == 10_000
    assert ledger_selectors.pool_balance(t.pk) == 300


def test_an_arena_with_fewer_than_two_players_at_its_time_is_cancelled_and_refunded(
    six: list[Any],
) -> None:
    t = arena.create_arena(six[0], name="Vắng", minutes=3, buy_in=200)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    arena.start_when_due(t.pk)
    t.refresh_from_db()
    assert t.state == State.CANCELLED
    assert ledger_selectors.balance(six[0]) == 10_000
    assert t.schedule is not None and t.schedule.closed_at is not None
    assert run_checks().ok


def test_the_arena_starts_by_itself_at_its_time_and_ends_minutes_later(six: list[Any]) -> None:
    t = arena.create_arena(six[0], name="Giờ", minutes=7, buy_in=0)
    arena.join(six[1], t.pk)
    assert arena.start_when_due(t.pk) is None  # not yet
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    arena.start_when_due(t.pk)
    t.refresh_from_db()
    assert t.state == State.RUNNING
    assert t.ends_at is not None and t.started_at is not None
    assert t.ends_at - t.started_at == timedelta(minutes=7)


def test_a_player_may_join_a_running_arena_and_goes_straight_into_the_queue(
    six: list[Any],
) -> None:
    t = running_arena(six[:4])
    entry = arena.join(six[4], t.pk)
    assert entry.state == EntryState.PLAYING and entry.waiting_since is not None
    assert ledger_selectors.pool_balance(t.pk) == 500


def test_bad_arena_settings_are_refused_with_a_reason(six: list[Any]) -> None:
    with pytest.raises(TournamentError) as caught:
        arena.create_arena(six[0], name="Dài", minutes=61, buy_in=0)
    assert caught.value.code == "bad_minutes"
    assert not Tournament.objects.exists()


def test_an_arena_shorter_than_three_minutes_needs_a_deployment_that_allows_it(
    six: list[Any], settings: Any
) -> None:
    with pytest.raises(TournamentError) as caught:
        arena.create_arena(six[0], name="Ngắn", minutes=2, buy_in=0)
    assert caught.value.code == "bad_minutes"
    settings.ARENA_MIN_MINUTES = 2  # the chaos harness's short run
    t = arena.create_arena(six[0], name="Ngắn", minutes=2, buy_in=0)
    assert t.minutes == 2


# --- Pairing ---------------------------------------------------------------------------


def test_waiting_players_are_seated_two_to_four_at_new_points_tables_of_the_arenas_boards(
    six: list[Any],
) -> None:
    t = running_arena(six)
    tables = seated_tables(t)
    assert sorted(len(users) for users in tables.values()) == [3, 3]
    for table in Table.objects.filter(pk__in=list(tables)):
        assert table.stakes_in == StakesIn.POINTS
        assert table.duplicate_schedule_id == t.schedule_id
        assert table.next_board == 1
    assert not Entry.objects.filter(tournament=t, table__isnull=True).exists()


def test_nobody_is_ever_dealt_an_arena_board_twice(six: list[Any]) -> None:
    t = running_arena(six[:5])
    for _ in range(4):
        play_boards(t)
    dealt = list(
        RoundPlayer.objects.filter(round__board__schedule_id=t.schedule_id).values_list(
            "user_id", "round__board__number"
        )
    )
    assert len(dealt) >= 5 * 4
    assert len(dealt) == len(set(dealt))  # no (player, board) twice
    for _table, users in seated_tables(t).items():
        assert 2 <= len(users) <= 4


def test_the_players_who_waited_longest_are_seated_together(six: list[Any]) -> None:
    t = arena.create_arena(six[0], name="Hàng đợi", minutes=3, buy_in=0)
    for user in six[1:]:
        arena.join(user, t.pk)
    arena.start_now(six[0], t.pk)  # nobody's page is open: nobody is seated
    assert seated_tables(t) == {}
    present(t, *six)
    now = timezone.now()
    # Giang waited longest, then Em, then Dũng; the other three just came back.
    for minutes, user in zip([9, 8, 7, 1, 1, 1], six[::-1], strict=True):
        Entry.objects.filter(tournament=t, user=user).update(
            waiting_since=now - timedelta(minutes=minutes)
        )
    arena.pair(t.pk)
    groups = sorted(seated_tables(t).values(), key=len)
    longest = {u.pk for u in six[3:]}
    assert longest in groups


def test_two_or_three_waiting_wait_a_moment_for_more_then_sit_together(six: list[Any]) -> None:
    with override_settings(ARENA_PAIR_WAIT_SECONDS=30):
        t = running_arena(six[:3])
        assert seated_tables(t) == {}
        Entry.objects.filter(tournament=t).update(
            waiting_since=timezone.now() - timedelta(seconds=31)
        )
        assert arena.pair(t.pk) == 1
    assert list(seated_tables(t).values()) == [{u.pk for u in six[:3]}]


def test_a_waiting_player_who_is_disconnected_is_not_paired_until_they_come_back(
    six: list[Any],
) -> None:
    t = arena.create_arena(six[0], name="Mất mạng", minutes=3, buy_in=0)
    for user in six[1:3]:
        arena.join(user, t.pk)
    present(t, six[0], six[1])  # Chi's page is closed: no socket anywhere
    arena.start_now(six[0], t.pk)
    assert list(seated_tables(t).values()) == [{six[0].pk, six[1].pk}]
    state = selectors.tournament_state(t.pk)
    chi = next(r for r in state["standings"] if r["user"] == six[2].pk)
    assert chi["status"] == "away"
    assert Entry.objects.get(tournament=t, user=six[2]).waiting_since is not None
    present(t, six[2])  # she comes back: the queue is paired (she waits for a partner)
    arena.pair(t.pk)
    assert Entry.objects.get(tournament=t, user=six[2]).table_id is None
    play_boards(t)  # An and Bình come back from their board: the three sit together
    assert list(seated_tables(t).values()) == [{u.pk for u in six[:3]}]


def test_a_paused_player_finishes_their_board_and_is_not_seated_again_until_they_resume(
    six: list[Any],
) -> None:
    t = running_arena(six[:2])
    arena.set_paused(six[1], t.pk, True)
    play_boards(t)
    assert seated_tables(t) == {}
    entry = Entry.objects.get(tournament=t, user=six[1])
    assert entry.paused and entry.waiting_since is None and entry.boards == 1
    arena.set_paused(six[1], t.pk, False)
    arena.pair(t.pk)
    assert list(seated_tables(t).values()) == [{six[0].pk, six[1].pk}]


# --- One board a table, points from the duplicate comparison -------------------------------


def test_an_arena_table_plays_one_board_and_closes(six: list[Any]) -> None:
    t = running_arena(six[:2])
    (table_id,) = seated_tables(t)
    round_ = play_round(table_id)
    assert round_ is not None and round_.board is not None and round_.board.number == 1
    table = Table.objects.get(pk=table_id)
    assert not table.is_open and table.start_at is None  # no countdown to a second deal
    assert play_round(table_id) is None


def test_the_tables_sweep_leaves_a_settled_boards_players_seated_for_the_arena_to_release(
    six: list[Any],
) -> None:
    t = running_arena(six[:4])
    (table_id,) = seated_tables(t)
    assert play_round(table_id) is not None
    # The board is settled and its table closed; the summary shows before the arena
    # releases them. The games sweep (closed tables' leftover seats) must not stand them
    # up meanwhile ("table_closed"): the arena's entries would still name the table.
    games_services.close_empty_tables()
    assert Seat.objects.filter(table_id=table_id).count() == 4
    assert arena.finish_table(t.pk, table_id)
    assert not Seat.objects.filter(table_id=table_id).exists()
    assert len(seated_tables(t)) == 1  # back in the queue and seated at the next board


def test_a_table_on_cards_nobody_held_yet_scores_by_its_own_result(six: list[Any]) -> None:
    t = running_arena(six[:4])
    (round_,) = play_boards(t)  # board 1 at a table of four
    results = list(ArenaResult.objects.filter(tournament=t, board=1))
    assert len(results) == 4
    by_user = {p.user_id: p for p in round_.players.all()}
    for r in results:
        assert r.others == 0 and r.matchpoints is None
        assert r.units == by_user[r.entry.user_id].units
        assert r.base == arena_rules.base_points(r.units, None)


def test_points_are_fixed_at_the_settlement_against_who_had_held_the_same_cards(
    six: list[Any],
) -> None:
    t = arena.create_arena(six[0], name="Lặp", minutes=3, buy_in=0)
    for user in six[1:4]:
        arena.join(user, t.pk)
    present(t, six[0], six[1])  # Chi and Dũng are not here yet
    arena.start_now(six[0], t.pk)
    present(t, six[2], six[3])
    arena.pair(t.pk)
    tables = seated_tables(t)
    first = next(table for table, users in tables.items() if six[0].pk in users)
    second = next(table for table, users in tables.items() if six[2].pk in users)
    assert tables[first] == {six[0].pk, six[1].pk} and tables[second] == {six[2].pk, six[3].pk}
    earlier = play_round(first)
    later = play_round(second)
    assert earlier is not None and later is not None
    assert earlier.board == later.board  # both tables dealt board 1: the same four hands
    scores = {r.round_player_id: r for r in games_duplicate.duplicate_scores(t.schedule_id, 1)}
    for p in later.players.all():
        mine = ArenaResult.objects.get(round=later, entry__user=p.user)
        holders = [
            s.units
            for s in scores.values()
            if s.round_id == earlier.pk and s.group == scores[p.pk].group
        ]
        assert len(holders) == 1
        _s, expected = games_duplicate.compare(p.units or 0, holders)
        assert (mine.others, mine.matchpoints) == (1, expected)
        assert mine.base == arena_rules.base_points(p.units or 0, expected)
    # The first table's points stay as they were fixed: nobody had held its cards then,
    # though the duplicate reading of now compares it with the second table.
    for r in ArenaResult.objects.filter(round=earlier):
        assert r.others == 0 and r.base == arena_rules.base_points(r.units, None)
        now = next(
            s for s in scores.values() if s.round_id == earlier.pk and s.user_id == r.entry.user_id
        )
        assert now.others == 1


def test_after_two_good_boards_in_a_row_points_count_double_until_a_board_that_is_not() -> None:
    scored = arena_rules.score_boards([2, 2, 2, 1, 2, 2, 2, 2, 0, 2])
    assert [s.points for s in scored] == [2, 2, 4, 2, 2, 2, 4, 4, 0, 2]
    assert [s.fire for s in scored] == [
        False,
        False,
        True,
        True,
        False,
        False,
        True,
        True,
        True,
        False,
    ]


def test_a_boards_base_points_come_from_matchpoints_or_the_table_when_nobody_compares() -> None:
    assert [arena_rules.base_points(0, mp) for mp in (1.0, 0.75, 0.5, 0.25, 0.0)] == [2, 2, 1, 0, 0]
    assert [arena_rules.base_points(u, None) for u in (5, 0, -3)] == [2, 1, 0]


def test_entrants_points_add_up_their_boards_and_the_streak_follows_the_results(
    six: list[Any],
) -> None:
    t = running_arena(six[:3])
    for _ in range(5):
        play_boards(t)
    for entry in Entry.objects.filter(tournament=t):
        results = list(ArenaResult.objects.filter(entry=entry).order_by("pk"))
        assert entry.boards == len(results) == 5
        assert entry.points == sum(r.points for r in results)
        expected = arena_rules.score_boards([r.base for r in results])
        assert [(r.points, r.fire) for r in results] == [(s.points, s.fire) for s in expected]
        assert entry.streak == expected[-1].streak


# --- Standings --------------------------------------------------------------------------


def test_the_standings_rank_by_points_with_fire_boards_and_status(six: list[Any]) -> None:
    t = running_arena(six[:5])
    for _ in range(3):
        play_boards(t)
    state = selectors.tournament_state(t.pk)
    assert state["arena"] is True and state["kind"] == "arena"
    rows = state["standings"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=t)}
    expected = arena_rules.rank(
        arena_rules.Standing(e.pk, e.points, e.boards, e.points_at) for e in entries.values()
    )
    assert [r["user"] for r in rows] == [
        next(u for u, e in entries.items() if e.pk == s.entry) for s in expected
    ]
    for r in rows:
        e = entries[r["user"]]
        assert (r["points"], r["boards"], r["fire"]) == (e.points, e.boards, e.streak >= 2)
        assert r["status"] in ("playing", "waiting")
        assert sum(x["points"] for x in r["results"]) == e.points
    assert 0 < state["time_left"] <= 180


def test_ties_go_to_fewer_boards_then_to_who_got_there_first() -> None:
    now = timezone.now()
    rows = [
        arena_rules.Standing(1, 6, 4, now),
        arena_rules.Standing(2, 6, 3, now + timedelta(seconds=5)),
        arena_rules.Standing(3, 6, 4, now - timedelta(seconds=5)),
        arena_rules.Standing(4, 8, 9, now),
        arena_rules.Standing(5, 0, 0, None),
        arena_rules.Standing(6, 0, 2, None),
    ]
    assert [r.entry for r in arena_rules.rank(rows)] == [4, 2, 3, 1, 5, 6]


# --- The end ----------------------------------------------------------------------------


def test_when_time_is_up_boards_in_play_finish_then_the_pool_pays_the_prize_table(
    six: list[Any],
) -> None:
    wallets = sum(ledger_selectors.balance(u) for u in six[:5])
    t = running_arena(six[:5], buy_in=1_000)
    play_boards(t)
    tables = list(seated_tables(t))
    assert len(tables) == 2
    # One table has dealt when the time is up, the other is still counting down.
    Table.objects.filter(pk=tables[0]).update(start_at=timezone.now() - timedelta(seconds=1))
    from games import services as games

    live = games.start_round_when_due(tables[0])
    assert live is not None
    Tournament.objects.filter(pk=t.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert arena.end(t.pk) is False  # a board in play
    t.refresh_from_db()
    assert t.state == State.RUNNING
    assert not Seat.objects.filter(table_id=tables[1]).exists()  # never dealt: closed
    assert arena.pair(t.pk) == 0  # no new board after the time
    from tests.support.played import run_timers

    run_timers(live)
    assert arena.finish_table(t.pk, tables[0])
    t.refresh_from_db()
    assert t.state == State.FINISHED
    entries = list(Entry.objects.filter(tournament=t).order_by("place"))
    assert [e.place for e in entries] == [1, 2, 3, 4, 5]
    assert all(e.state == EntryState.FINISHED for e in entries)
    assert [e.prize for e in entries] == [3_250, 1_750, 0, 0, 0]  # 5-7 entrants: 65/35
    ranked = arena_rules.rank(
        arena_rules.Standing(e.pk, e.points, e.boards, e.points_at) for e in entries
    )
    assert [s.entry for s in ranked] == [e.pk for e in entries]
    assert ledger_selectors.pool_balance(t.pk) == 0
    assert sum(ledger_selectors.balance(u) for u in six[:5]) == wallets
    # Every board of the arena's schedule is revealed: every deal can be verified.
    assert not DuplicateBoard.objects.filter(
        schedule_id=t.schedule_id, revealed_at__isnull=True
    ).exists()
    for round_ in Round.objects.filter(board__schedule_id=t.schedule_id):
        games_selectors.verify_round(round_)
    assert not Seat.objects.filter(table__tournament_table__tournament=t).exists()
    report = run_checks()
    assert report.ok, report.problems
    call_command("ledger_check")


def test_a_lost_timer_never_stalls_the_arena_the_sweeper_moves_it(six: list[Any]) -> None:
    t = arena.create_arena(six[0], name="Quét", minutes=3, buy_in=100)
    arena.join(six[1], t.pk)
    present(t, six[0], six[1])
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=10))
    arena.sweep_arenas()  # the start timer was lost
    t.refresh_from_db()
    assert t.state == State.RUNNING
    (table_id,) = seated_tables(t)
    round_ = play_round(table_id)
    assert round_ is not None
    Round.objects.filter(pk=round_.pk).update(settled_at=timezone.now() - timedelta(minutes=1))
    arena.sweep_arenas()  # the board's finish timer was lost: back in the queue, paired again
    assert table_id not in seated_tables(t) and len(seated_tables(t)) == 1
    Tournament.objects.filter(pk=t.pk).update(ends_at=timezone.now() - timedelta(seconds=10))
    arena.sweep_arenas()  # the end timer was lost too
    t.refresh_from_db()
    assert t.state == State.FINISHED
    assert ledger_selectors.pool_balance(t.pk) == 0
    assert run_checks().ok


# --- Spectators -------------------------------------------------------------------------


def test_an_arena_table_admits_only_its_players_and_staff(six: list[Any], make_user: Any) -> None:
    t = running_arena(six[:3])
    arena.join(six[3], t.pk)
    arena.join(six[4], t.pk)
    present(t, six[3], six[4])
    arena.pair(t.pk)
    tables = seated_tables(t)
    mine = next(table for table, users in tables.items() if six[0].pk in users)
    table = Table.objects.get(pk=mine)
    outsider = make_user("khach")
    moderator = _staff(make_user, "mod", moderator=True)
    for user in six[:5]:
        assert games_selectors.may_enter(table, user) is (user.pk in tables[mine])
    assert not games_selectors.may_enter(table, outsider)
    assert games_selectors.may_enter(table, moderator)
