"""A timer far ahead is queued by the planner shortly before its time, once, and only if its
step is still to come; one due soon is queued at its commit (games.services.timers)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games import services, tasks
from games.models import RoundState, Table
from games.services import timers
from tests.support.played import deal_for_two, play_to_the_end, quick_table

pytestmark = pytest.mark.django_db(transaction=True)

HORIZON = timers.HORIZON
SECOND = timedelta(seconds=1)


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...], datetime]]:
    """The timer tasks sent, as (task name, args, eta), instead of sending them; the
    planner starts with no slice behind it (as if it never ran)."""
    sent: list[tuple[str, tuple[Any, ...], datetime]] = []
    for task in (tasks.advance_round_task, tasks.start_round_when_due_task):

        def apply_async(args: tuple[Any, ...], *, eta: datetime, _name: str = task.name) -> None:
            sent.append((_name, tuple(args), eta))

        monkeypatch.setattr(task, "apply_async", apply_async)
    cache.delete(timers.PLANNED_KEY)
    return sent


@pytest.fixture
def planner_running(queued, monkeypatch: pytest.MonkeyPatch) -> None:
    """The planner has run (its slice ends at now + HORIZON) and counts as running for the
    whole test, however slowly a loaded machine runs it."""
    services.plan_timers()
    queued.clear()
    monkeypatch.setattr(timers, "STALE", timedelta(days=1))


def test_a_timer_due_soon_is_queued_at_its_commit_and_one_due_later_is_not(
    queued, planner_running, table
):
    soon, later = timezone.now() + 2 * SECOND, timezone.now() + 30 * SECOND
    with transaction.atomic():
        timers.queue_start(table.pk, soon)
        timers.queue_start(table.pk, later)
        assert queued == []  # on commit, not before
    assert queued == [("games.start_round_when_due", (table.pk, soon.isoformat()), soon)]


def test_the_arranging_deadline_is_queued_by_the_planner_once_shortly_before_it(
    queued, planner_running, players, table
):
    round_ = deal_for_two(players, table)
    assert round_.deadline is not None and round_.deadline > timezone.now() + HORIZON
    assert [name for name, _args, _eta in queued if name == "games.advance_round"] == []
    queued.clear()  # the countdown's start, which the sit-downs queued (due soon)

    assert services.plan_timers(now=round_.deadline - 10 * SECOND) == 0
    assert services.plan_timers(now=round_.deadline - HORIZON) == 1
    assert services.plan_timers(now=round_.deadline - HORIZON + SECOND) == 0
    assert services.plan_timers(now=round_.deadline) == 0
    assert queued == [
        ("games.advance_round", (round_.pk, RoundState.ARRANGING, round_.phase), round_.deadline)
    ]


def test_a_round_everyone_submitted_in_time_never_queues_its_arranging_deadline(
    queued, planner_running, players, table
):
    round_ = deal_for_two(players, table)
    deadline = round_.deadline
    assert deadline is not None
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(
            rp.user, round_.pk, [rp.cards[:5], rp.cards[5:10], rp.cards[10:]]
        )
    now = timezone.now()
    while now < deadline + HORIZON:
        services.plan_timers(now=now)
        now += SECOND
    steps = [args for name, args, _eta in queued if name == "games.advance_round"]
    assert [args for args in steps if args[1] == RoundState.ARRANGING] == []
    assert steps  # the showdown's own timer is still queued


def test_a_countdown_the_players_ended_by_saying_ready_never_queues_its_start(
    queued, planner_running, players, table
):
    played = play_to_the_end(players, table)
    table.refresh_from_db()
    start_at = table.start_at
    assert start_at is not None and start_at > timezone.now() + HORIZON
    queued.clear()

    services.between_rounds(players[0], table.pk, played.pk, "ready")
    dealt = services.between_rounds(players[1], table.pk, played.pk, "ready")

    assert dealt is not None
    services.plan_timers(now=start_at - HORIZON)
    assert [args for name, args, _eta in queued if name == "games.start_round_when_due"] == []


@pytest.mark.parametrize(
    "gaps",
    [
        [1.0] * 40,  # on time
        [0.3, 1.7, 0.9, 1.2, 0.6, 2.5, 0.1, 1.0] * 5,  # irregular, one run late by 1.5 s
        [1.0] * 10 + [6.0] + [1.0] * 25,  # the beat stopped for longer than the horizon
    ],
    ids=["on-time", "irregular", "a-long-stop"],
)
def test_each_countdown_is_queued_once_whenever_the_planners_runs_fall(
    queued, players, gaps: list[float]
):
    now = timezone.now()
    offsets = [2.5, 4.0, 7.25, 9.0, 13.5, 21.0, 29.75]
    tables = [quick_table(players[i % 4], name=f"Bàn {i}") for i in range(len(offsets))]
    due = {t.pk: now + timedelta(seconds=s) for t, s in zip(tables, offsets, strict=True)}
    for table_id, when in due.items():
        Table.objects.filter(pk=table_id).update(start_at=when)

    ran: list[datetime] = []
    at = now
    for gap in gaps:
        services.plan_timers(now=at)
        ran.append(at)
        at += timedelta(seconds=gap)

    starts = [(args, eta) for name, args, eta in queued if name == "games.start_round_when_due"]
    assert sorted(args[0] for args, _eta in starts) == sorted(due)  # each once
    for (table_id, expected), eta in starts:
        assert eta == due[table_id] and expected == due[table_id].isoformat()
        # queued by the first run within the horizon of its time, or, after a stop, the
        # first run after it
        first = next(r for r in ran if r + HORIZON >= due[table_id])
        assert first <= due[table_id] or first - max(r for r in ran if r < first) > HORIZON


def test_the_planner_that_lost_its_place_starts_at_the_sweepers_grace(queued, players):
    now = timezone.now()
    just_due = quick_table(players[0], name="Vừa đến giờ")
    long_due = quick_table(players[1], name="Quá giờ lâu")
    Table.objects.filter(pk=just_due.pk).update(start_at=now - SECOND / 2)
    Table.objects.filter(pk=long_due.pk).update(start_at=now - 5 * SECOND)

    services.plan_timers(now=now)

    assert [args[0] for _name, args, _eta in queued] == [just_due.pk]  # the other: the sweeper's


def test_while_the_planner_does_not_run_every_timer_is_queued_at_its_commit(queued, table):
    later = timezone.now() + 30 * SECOND
    with transaction.atomic():
        timers.queue_start(table.pk, later)  # no planner ever ran
    services.plan_timers(now=timezone.now() - 10 * SECOND)  # one that stopped 10 s ago
    with transaction.atomic():
        timers.queue_start(table.pk, later)
    assert [args for name, args, _eta in queued if name == "games.start_round_when_due"] == [
        (table.pk, later.isoformat()),
        (table.pk, later.isoformat()),
    ]
