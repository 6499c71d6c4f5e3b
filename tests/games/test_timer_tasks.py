"""Timer tasks retry a transient database fault instead of dropping the round's step."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from games import services, tasks
from games.models import Round, RoundState
from tests.support.played import deal_for_two

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def due_round(players, table):  # type: ignore[no-untyped-def]
    round_ = deal_for_two(players, table)
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    return round_


def _failing_once(monkeypatch, name: str, error: Exception) -> list[int]:  # type: ignore[no-untyped-def]
    real = getattr(services, name)
    calls: list[int] = []

    def flaky(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 1:
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(services, name, flaky)
    return calls


def test_a_timer_step_that_loses_its_database_connection_is_retried(monkeypatch, due_round):
    calls = _failing_once(monkeypatch, "advance_round", OperationalError("terminating connection"))
    tasks.advance_round_task.apply((due_round.pk, "arranging", 1))
    due_round.refresh_from_db()
    assert len(calls) == 2
    assert due_round.state == RoundState.SHOWDOWN


def test_a_timer_step_is_not_retried_for_a_refusal_that_would_repeat(monkeypatch, due_round):
    calls = _failing_once(monkeypatch, "advance_round", ValueError("a bug, not a fault"))
    result = tasks.advance_round_task.apply((due_round.pk, "arranging", 1))
    assert isinstance(result.result, ValueError)
    assert len(calls) == 1


def test_a_retried_timer_step_that_finds_the_round_moved_on_does_nothing(due_round):
    tasks.advance_round_task.apply((due_round.pk, "arranging", 1))
    due_round.refresh_from_db()
    phase = due_round.phase
    tasks.advance_round_task.apply((due_round.pk, "arranging", 1))  # a late duplicate
    due_round.refresh_from_db()
    assert (due_round.state, due_round.phase) == (RoundState.SHOWDOWN, phase)
