"""The bots listen to the tables (games.signals, sent after commit) and enqueue tasks.

Receivers only read and enqueue: every change happens in a task, through a service.
"""

from __future__ import annotations

from typing import Any

from bots import selectors, services, tasks
from games.models import Round, Table
from games.selectors import active_round
from games.signals import round_dealt, round_settled, seat_changed, seat_wanted


def connect() -> None:
    seat_changed.connect(on_seat_changed, dispatch_uid="bots.seat_changed")
    round_dealt.connect(on_round_dealt, dispatch_uid="bots.round_dealt")
    round_settled.connect(on_round_settled, dispatch_uid="bots.round_settled")
    seat_wanted.connect(on_seat_wanted, dispatch_uid="bots.seat_wanted")


def on_seat_changed(sender: Any, table_id: int, **kwargs: Any) -> None:
    table, bots_seated = selectors.table_and_bots(table_id)
    if table is None or (not bots_seated and not table.allow_bots):
        return  # no bot to send away, none to bring: one query at most tables, at every sit
    if active_round(table) is not None:
        return  # bots come and go between rounds; round_settled looks again
    seats = selectors.who_sits(table)  # one read for what follows (every sit-down asks)
    if bots_seated and not seats.people and not selectors.is_bot_only(table):
        tasks.tidy_table_task.delay(table.pk)  # the last person left: the bots go too
    _schedule_fill(table, seats)


def on_round_settled(sender: Any, table_id: int, round_id: int, **kwargs: Any) -> None:
    table, bots_seated = selectors.table_and_bots(table_id)
    if table is None:
        return
    if bots_seated:
        tasks.tidy_table_task.delay(table.pk)  # leave, make room, or top up for the next deal
    _schedule_fill(table)  # a table without bots, not open to them: no further query


def _schedule_fill(table: Table, seats: selectors.Seated | None = None) -> None:
    """Bots come for the free seats once the people here have waited undisturbed
    (``seats``: who sits there, if the caller has read it)."""
    if not table.allow_bots or not table.is_open:
        return
    if seats is None:
        seats = selectors.who_sits(table)
    if len(seats.user_ids) >= table.seats:
        return
    if seats.people or selectors.is_bot_only(table):
        tasks.fill_table_task.apply_async(
            (table.pk, seats.user_ids), countdown=table.bot_wait_seconds
        )


def on_round_dealt(
    sender: Any, table_id: int, round_id: int, bot_ids: list[int] | None = None, **kwargs: Any
) -> None:
    # The deal says which bots it dealt in (None: ask): most rounds deal none, and cost
    # this receiver no query.
    bots = selectors.bots_in_round(round_id) if bot_ids is None else bot_ids
    if not bots:
        return
    round_ = Round.objects.filter(pk=round_id).first()
    if round_ is None:
        return
    rules = round_.rules
    for bot_user_id in bots:
        tasks.play_turn_task.apply_async(
            (round_id, bot_user_id, round_.phase), countdown=services.think_seconds(rules)
        )


def on_seat_wanted(sender: Any, table_id: int, **kwargs: Any) -> None:
    services.note_seat_wanted(table_id)  # a note in the cache only: see games.signals
