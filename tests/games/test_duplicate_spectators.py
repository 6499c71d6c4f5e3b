"""Who sees a duplicate board's cards at the table: only those who can no longer be dealt
it (docs/duplicate.md, "Watching a duplicate table"). The same rules over a real
websocket: test_duplicate_spectators_live.py."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import events, services
from games.models import Round, RoundState, Table
from games.selectors import board_audience, is_staff, reveal_payload, table_snapshot
from games.services import duplicate
from tests.support.arranging import naive_arrangement
from tests.support.duplicates import duplicate_table, play
from tests.support.played import run_timers
from tests.support.wsclient import card_strings

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

    run_timers(round_)
    watching = table_snapshot(table, people[2])["round"]
    assert watching["summary"]["withheld"] is True
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


# --- No player's result either (docs/duplicate.md, "Watching a duplicate table") ---------

RESULT_KEYS = {"units", "xu", "status", "balance", "rating", "breakdown", "chi_won", "chi_lost"}


def _seat_balances(table: Table, viewer: Any) -> dict[int, Any]:
    table.refresh_from_db()
    return {seat["user"]: seat["balance"] for seat in table_snapshot(table, viewer)["seats"]}


def _as_received(sent: list[tuple[dict[str, Any], Any, Any]], user: Any) -> list[dict[str, Any]]:
    """The table events ``user``'s socket would send on (games.sequencer.InOrder.deliver)."""
    return [
        payload if audience is None or user.pk in audience or others is None else others
        for payload, audience, others in sent
    ]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, Any], Any, Any]]:
    """Every table event, with its audience and the withheld form for everyone else."""
    out: list[tuple[dict[str, Any], Any, Any]] = []

    def to_table(table_id: int, payload: dict[str, Any], *, audience=None, others=None, later=()):  # type: ignore[no-untyped-def]
        out.append((payload, audience, others))
        # The showdown's later chi, sent ahead (games.events.message): each checked the same.
        out.extend((then, audience, others_then) for _key, _at, then, others_then in later)

    monkeypatch.setattr(events, "to_table", to_table)
    return out


def test_a_spectator_sees_no_players_result_of_a_board_they_may_still_be_dealt(people, schedule):
    """A result (units, xu, a balance after the round, a rating's change) tells how good
    the hand was: a spectator who may be dealt the board learns none of it."""
    table = duplicate_table(people[0], schedule)
    round_ = run_timers(_showdown(table, people[0:2]))
    assert any(p.xu for p in round_.players.all())

    summary = table_snapshot(table, people[2])["round"]["summary"]
    assert summary["withheld"] is True
    assert [set(row) for row in summary["players"]] == [{"position", "user", "name"}] * 2
    assert not RESULT_KEYS & {key for row in summary["players"] for key in row}
    # The seats' balances are the balances before plus the result: not shown either.
    assert _seat_balances(table, people[2]) == {people[0].pk: None, people[1].pk: None}

    # The players themselves see everything, and so does everyone once the board is out.
    assert all(
        row["xu"] is not None
        for row in table_snapshot(table, people[0])["round"]["summary"]["players"]
    )
    assert None not in _seat_balances(table, people[0]).values()
    duplicate.close_schedule(schedule.pk)
    summary = table_snapshot(table, people[2])["round"]["summary"]
    assert [row["xu"] for row in summary["players"]] == [
        p.xu for p in round_.players.order_by("position")
    ]
    assert None not in _seat_balances(table, people[2]).values()


def test_a_spectator_sees_no_balance_while_the_next_board_is_arranged(people, schedule):
    table = duplicate_table(people[0], schedule)
    run_timers(_showdown(table, people[0:2]))
    services.start_round(people[0], table.pk)  # board 2, being arranged
    assert _seat_balances(table, people[2]) == {people[0].pk: None, people[1].pk: None}
    assert None not in _seat_balances(table, people[1]).values()


def test_the_settled_event_to_a_spectator_carries_no_players_result(people, schedule, sent):
    table = duplicate_table(people[0], schedule)
    round_ = run_timers(_showdown(table, people[0:2]))
    (full,) = [m for m in _as_received(sent, people[0]) if m["type"] == "settled"]
    (watched,) = [m for m in _as_received(sent, people[2]) if m["type"] == "settled"]
    assert [row["xu"] for row in full["players"]] == [
        p.xu for p in round_.players.order_by("position")
    ]
    assert watched["withheld"] is True
    assert [set(row) for row in watched["players"]] == [{"position", "user", "name"}] * 2
    assert "balance" not in json.dumps(watched)


def test_a_voided_round_of_a_secret_board_shows_a_spectator_no_balance(people, schedule, sent):
    table = duplicate_table(people[0], schedule)
    run_timers(_showdown(table, people[0:2]))  # board 1: its result is in the balances now
    live = services.start_round(people[0], table.pk)  # board 2
    services.void_round(live.pk, reason=services.VoidReason.STAFF)
    (watched,) = [m for m in _as_received(sent, people[2]) if m["type"] == "voided"]
    assert watched["withheld"] is True
    assert [set(row) for row in watched["players"]] == [{"position", "user", "returned"}] * 2
    (mine,) = [m for m in _as_received(sent, people[0]) if m["type"] == "voided"]
    assert all(row["balance"] is not None for row in mine["players"])
    voided = table_snapshot(table, people[2])["round"]["voided"]
    assert voided["withheld"] is True and "balance" not in json.dumps(voided)
    assert _seat_balances(table, people[2]) == {people[0].pk: None, people[1].pk: None}


def test_an_ordinary_table_shows_spectators_every_result_and_balance(people, table):
    round_ = run_timers(_showdown(table, people[0:2]))
    summary = table_snapshot(table, people[2])["round"]["summary"]
    assert [row["xu"] for row in summary["players"]] == [
        p.xu for p in round_.players.order_by("position")
    ]
    assert None not in _seat_balances(table, people[2]).values()
