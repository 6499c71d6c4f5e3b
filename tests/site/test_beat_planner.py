"""Beat runs the round timers' planner itself, every second between its periodic tasks
(maubinh_site.beat), in every way the site runs beat: `celery beat`, a worker's `-B` and
the embedded default's thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.services import timers
from maubinh_site import beat
from maubinh_site.celery import app


@pytest.fixture
def scheduler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The site's scheduler on a schedule file of its own; its periodic tasks recorded,
    not sent."""
    monkeypatch.setattr(beat.Scheduler, "apply_entry", lambda self, entry, producer=None: None)
    made = beat.Scheduler(app=app, schedule_filename=str(tmp_path / "schedule"), lazy=False)
    yield made
    made.close()


def test_beat_plans_the_timers_once_a_second_however_often_it_ticks(
    scheduler: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    runs: list[float] = []
    monkeypatch.setattr(beat.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(beat, "plan", lambda: runs.append(clock[0]))

    waits = []
    for _ in range(25):  # ticks 0.2 s apart: 5 s
        waits.append(scheduler.tick())
        clock[0] += 0.2

    assert runs == pytest.approx([1000.0, 1001.0, 1002.0, 1003.0, 1004.0])
    assert max(waits) <= timers.PLAN_SECONDS  # beat never sleeps past the next planner run


def test_a_planner_run_that_fails_is_logged_and_the_next_one_runs(
    scheduler: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    clock = [1000.0]
    calls: list[int] = []
    monkeypatch.setattr(beat.time, "monotonic", lambda: clock[0])

    def plan_timers() -> int:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the database went away")
        return 0

    monkeypatch.setattr(timers, "plan_timers", plan_timers)
    scheduler.tick()
    clock[0] += 1.0
    scheduler.tick()

    assert len(calls) == 2
    assert "the timers' planner failed" in caplog.text


def test_every_beat_the_site_starts_uses_the_scheduler_that_plans() -> None:
    from maubinh_site.embedded import thread_beat

    assert app.conf.beat_scheduler == "maubinh_site.beat:Scheduler"  # celery beat, -B
    embedded = thread_beat(start=False)  # the embedded default's, the tests' worker thread's
    made = embedded.service.get_scheduler(lazy=True)
    assert isinstance(made, beat.Scheduler)
