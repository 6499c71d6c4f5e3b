"""Timers and the sweeper: a lost timer never stalls a tournament; stale timers do nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Seat
from tournaments.models import Entry, EntryState, State, Tournament
from tournaments.sitandgo import services, tasks
from tournaments.sweeper import sweep_tournaments

from .conftest import open_tables, play_round

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_sweeper_fills_with_bots_a_tournament_whose_timer_was_lost(players):
    t = services.create_sit_and_go(players[0], name="Mất hẹn", players=4, buy_in=0, allow_bots=True)
    assert services.fill_with_bots(t.pk, t.bots_at.isoformat()) is None  # early: not yet
    Tournament.objects.filter(pk=t.pk).update(bots_at=timezone.now() - timedelta(seconds=10))
    assert sweep_tournaments() == 1
    t.refresh_from_db()
    assert t.state == State.RUNNING and t.entries.count() == 4


def test_a_stale_bots_timer_does_nothing_after_a_new_registration(players):
    t = services.create_sit_and_go(players[0], name="Cũ", players=4, buy_in=0, allow_bots=True)
    stale = t.bots_at.isoformat()
    services.register(players[1], t.pk)
    Tournament.objects.filter(pk=t.pk).update(bots_at=timezone.now() - timedelta(seconds=1))
    assert services.fill_with_bots(t.pk, stale) is None
    assert Tournament.objects.get(pk=t.pk).state == State.REGISTERING


def test_the_sweeper_runs_a_table_step_whose_timer_was_lost(players, small_stacks):
    t = services.create_sit_and_go(players[0], name="Bước", players=4, buy_in=0)
    for p in players[1:]:
        services.register(p, t.pk)
    table_id = open_tables(t)[0]
    for _ in range(30):  # rounds until someone is out; no table step runs (its timer "lost")
        play_round(table_id)
        if Entry.objects.filter(tournament=t, state=EntryState.BUSTED).exists():
            break
    busted = set(
        Entry.objects.filter(tournament=t, state=EntryState.BUSTED).values_list(
            "user_id", flat=True
        )
    )
    assert busted and Seat.objects.filter(user_id__in=busted).exists()
    assert sweep_tournaments() >= 1
    assert not Seat.objects.filter(user_id__in=busted).exists()
    assert sweep_tournaments() == 0  # nothing left to do: the step is idempotent


def test_the_timer_tasks_retry_transient_database_faults():
    from django.db import OperationalError

    from games.errors import TableBusy

    for task in (tasks.fill_with_bots_task, tasks.table_step_task):
        assert OperationalError in task.autoretry_for and TableBusy in task.autoretry_for


def test_every_timer_keeps_the_name_a_message_queued_before_a_deploy_carries():
    from django.conf import settings

    from maubinh_site.celery import app

    app.loader.import_default_modules()  # what a worker imports at its start
    queued_by_name = {
        "tournaments.fill_with_bots",
        "tournaments.table_step",
        "tournaments.arena_start",
        "tournaments.arena_pair",
        "tournaments.arena_finish_table",
        "tournaments.arena_end",
        "tournaments.sweep",
    }
    assert queued_by_name <= set(app.tasks)
    assert "tournaments.sweep" in {
        entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
