"""A board's reveal racing a deal of that board, on PostgreSQL (two threads, two
connections): the reveal waits for the deal and is refused, or the deal waits for the
reveal and plays another board; a board is never revealed while a round plays it. The
same for staff opening a board (``record_board_seen``) while it is dealt to them."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from games import services
from games.errors import GameError
from games.models import BoardSeen, DuplicateBoard, DuplicateSchedule, Round, Table
from games.selectors import LIVE_STATES
from games.services import duplicate
from tests.support.duplicates import duplicate_table, play
from tests.support.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HOLD = 0.5
"""Seconds the first side keeps its board lock after taking it: the other side's call
starts meanwhile and meets the lock."""


@pytest.fixture
def ready(make_user: Any, fixed_boards: None) -> tuple[DuplicateSchedule, Table, Any]:
    """Two players seated at a duplicate table whose next deal is board 1 of 2."""
    host, guest = make_user("chu"), make_user("khach")
    schedule = duplicate.create_schedule(name="Đua", boards=2, created_by=host)
    table = duplicate_table(host, schedule)
    duplicate.assign_board(table.pk, schedule.pk, 1)
    services.sit(host, table.pk)
    services.sit(guest, table.pk)
    return schedule, table, host


def _holding(original: Callable[..., Any], locked: threading.Event) -> Callable[..., Any]:
    """``original``, which takes a board lock, then a pause with the lock held."""

    def hold(*args: Any) -> Any:
        result = original(*args)
        locked.set()
        time.sleep(HOLD)
        return result

    return hold


def _after(locked: threading.Event, call: Callable[[], Any]) -> Callable[[], Any]:
    return lambda: (locked.wait(10), call())[1]


def _never_revealed_mid_round(schedule: DuplicateSchedule) -> DuplicateBoard:
    board = DuplicateBoard.objects.get(schedule=schedule, number=1)
    live = Round.objects.filter(board=board, state__in=LIVE_STATES).exists()
    assert not (board.is_revealed and live)
    return board


def test_a_reveal_during_a_deal_of_its_board_waits_for_it_and_is_refused(ready, monkeypatch):
    schedule, table, host = ready
    locked = threading.Event()
    monkeypatch.setattr(duplicate, "_share_locked", _holding(duplicate._share_locked, locked))
    deal, reveal = race(
        lambda: services.start_round(host, table.pk),
        _after(locked, lambda: duplicate.reveal_board(schedule.pk, 1)),
        refusals=(GameError,),
    )
    assert isinstance(deal, Round)
    assert isinstance(reveal, GameError) and reveal.code == "board_in_play"
    board = _never_revealed_mid_round(schedule)
    assert Round.objects.get(pk=deal.pk).board == board and not board.is_revealed


def test_a_deal_during_a_reveal_of_its_board_waits_for_it_and_deals_the_next(ready, monkeypatch):
    schedule, table, host = ready
    locked = threading.Event()
    monkeypatch.setattr(duplicate, "_lock_board", _holding(duplicate._lock_board, locked))
    reveal, deal = race(
        lambda: duplicate.reveal_board(schedule.pk, 1),
        _after(locked, lambda: services.start_round(host, table.pk)),
        refusals=(GameError,),
    )
    assert isinstance(reveal, DuplicateBoard)
    assert isinstance(deal, Round)
    board = _never_revealed_mid_round(schedule)
    assert board.is_revealed
    assert Round.objects.select_related("board").get(pk=deal.pk).board.number == 2


def test_a_reveal_and_a_deal_of_one_board_at_the_same_moment_serialize(ready):
    schedule, table, host = ready
    reveal, deal = race(
        lambda: duplicate.reveal_board(schedule.pk, 1),
        lambda: services.start_round(host, table.pk),
        refusals=(GameError,),
    )
    assert isinstance(deal, Round)
    board = _never_revealed_mid_round(schedule)
    dealt = Round.objects.select_related("board").get(pk=deal.pk).board
    assert (board.is_revealed, dealt.number) in {(True, 2), (False, 1)}
    assert isinstance(reveal, DuplicateBoard) == board.is_revealed


# --- Staff shown a board (the moderation replay) racing a deal of it to them -------------


def _board_one_elsewhere(make_user: Any, schedule: DuplicateSchedule) -> Round:
    others = [make_user("khac1"), make_user("khac2")]
    round_ = play(duplicate_table(others[0], schedule, "Bàn khác"), others)
    assert round_.board is not None and round_.board.number == 1
    return round_


def test_opening_a_board_while_it_is_dealt_to_you_waits_for_the_deal_and_is_refused(
    ready, make_user, monkeypatch
):
    schedule, table, host = ready
    elsewhere = _board_one_elsewhere(make_user, schedule)
    locked = threading.Event()
    monkeypatch.setattr(duplicate, "_share_locked", _holding(duplicate._share_locked, locked))
    deal, seen = race(
        lambda: services.start_round(host, table.pk),
        _after(locked, lambda: duplicate.record_board_seen(host, elsewhere, "moderation_replay")),
        refusals=(GameError,),
    )
    assert isinstance(deal, Round) and deal.board_id == elsewhere.board_id
    assert isinstance(seen, GameError) and seen.code == "board_in_play_for_you"
    assert not BoardSeen.objects.exists()


def test_a_deal_while_you_open_its_board_waits_and_deals_you_the_next_board(
    ready, make_user, monkeypatch
):
    schedule, table, host = ready
    elsewhere = _board_one_elsewhere(make_user, schedule)
    locked = threading.Event()
    monkeypatch.setattr(duplicate, "_lock_board", _holding(duplicate._lock_board, locked))
    seen, deal = race(
        lambda: duplicate.record_board_seen(host, elsewhere, "moderation_replay"),
        _after(locked, lambda: services.start_round(host, table.pk)),
        refusals=(GameError,),
    )
    assert isinstance(seen, BoardSeen) and seen.board_id == elsewhere.board_id
    assert isinstance(deal, Round)
    assert Round.objects.select_related("board").get(pk=deal.pk).board.number == 2
