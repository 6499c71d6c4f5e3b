"""Who sees a duplicate board's cards at the table: only those who can no longer be dealt
it (docs/duplicate.md, "Watching a duplicate table"). The same rules over a real
websocket: test_duplicate_spectators_live.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import Round, RoundState, Table
from games.selectors import board_audience, is_staff, reveal_payload, table_snapshot
from games.services import duplicate
from tests.games.arranging import naive_arrangement
from tests.games.duplicates import duplicate_table, play
from tests.games.played import run_timers
from tests.wsclient import card_strings

pytestmark = pytest.mark.django_db


def _showdown(table: Table, users: list[Any]) -> Round:
    """``users`` sit and play a round of the table up to its showdown (not settled)."""
    for user in users:
        services.sit(user, table.pk)
    round_ = services.start_round(users[0], table.pk)
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    services.advance_round(round_.pk, RoundState.ARRANGING, round_.phase)
    round_.refresh_from_db()
    assert round_.state == RoundState.SHOWDOWN
    return round_


def _shown(round_: Round) -> set[str]:
    """The cards the showdown has turned over so far (chi 1 of each hand, at its start)."""
    shown = card_strings(reveal_payload(round_))
    assert shown
    return shown


def _cards_seen(table: Table, viewer: Any) -> set[str]:
    table.refresh_from_db()
    return card_strings(table_snapshot(table, viewer)["round"])


def test_a_spectator_who_may_still_be_dealt_the_board_sees_no_card_of_its_showdown(
    people, schedule
):
    table = duplicate_table(people[0], schedule)
    round_ = _showdown(table, people[0:2])

    watching = table_snapshot(table, people[2])["round"]
    assert watching["reveal"]["withheld"] is True
    assert card_strings(watching) == set()
    assert _shown(round_) <= _cards_seen(table, people[0])  # a player of the round sees it

    settled = run_timers(round_)
    watching = table_snapshot(table, people[2])["round"]
    assert watching["summary"]["withheld"] is True
    assert [row["xu"] for row in watching["summary"]["players"]] == [
        p.xu for p in settled.players.order_by("position")
    ]
    assert card_strings(watching) == set()


def test_someone_who_played_the_board_to_the_end_elsewhere_sees_its_showdown(people, schedule):
    play(duplicate_table(people[2], schedule, "Trước"), people[2:4])
    table = duplicate_table(people[0], schedule)
    round_ = _showdown(table, people[0:2])
    assert round_.board.number == 1
    assert _cards_seen(table, people[2]) == _shown(round_)
    assert set(board_audience(round_) or []) == {p.pk for p in people[0:4]}


def test_a_player_whose_round_of_the_board_is_still_live_cannot_watch_it_elsewhere(
    people, schedule
):
    """They would see the very hands they are playing against."""
    mine = _showdown(duplicate_table(people[2], schedule, "Của tôi"), people[2:4])
    services.sit(people[4], mine.table_id)  # a seated player not dealt in is a spectator too
    other = duplicate_table(people[0], schedule)
    round_ = _showdown(other, people[0:2])
    assert round_.board_id == mine.board_id
    assert _cards_seen(other, people[2]) == set()
    assert _cards_seen(Table.objects.get(pk=mine.table_id), people[4]) == set()
    assert people[2].pk not in (board_audience(round_) or [])


def test_staff_watching_a_duplicate_table_see_no_cards_either(people, schedule, make_user):
    admin = make_user("quantri")
    admin.is_staff = admin.is_superuser = True  # an admin and a moderator (accounts.roles)
    admin.save(update_fields=["is_staff", "is_superuser"])
    assert is_staff(admin)
    table = duplicate_table(people[0], schedule)
    _showdown(table, people[0:2])
    assert _cards_seen(table, admin) == set()


def test_everyone_sees_the_showdown_once_the_board_is_revealed(people, schedule):
    table = duplicate_table(people[0], schedule)
    round_ = run_timers(_showdown(table, people[0:2]))
    duplicate.close_schedule(schedule.pk)  # no round plays board 1 now: revealed
    assert board_audience(round_) is None
    summary = table_snapshot(table, people[5])["round"]["summary"]
    assert "withheld" not in summary
    assert summary["server_seed"] == round_.board.seed
    assert summary["board"] == {"schedule": schedule.pk, "number": 1, "revealed": True}


def test_an_ordinary_table_shows_its_showdown_to_spectators(people, table):
    round_ = _showdown(table, people[0:2])
    assert board_audience(round_) is None
    assert _cards_seen(table, people[2]) == _shown(round_)


def test_a_settled_round_of_a_board_in_play_shows_the_hash_and_no_seed(people, schedule):
    table = duplicate_table(people[0], schedule)
    round_ = run_timers(_showdown(table, people[0:2]))
    summary = table_snapshot(table, people[0])["round"]["summary"]
    assert summary["server_seed"] == ""
    assert summary["commitment"] == round_.board.seed_hash
    assert summary["board"] == {"schedule": schedule.pk, "number": 1, "revealed": False}
