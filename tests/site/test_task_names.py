"""Every Celery task says it is one (``…_task``, as ``games.tasks`` does), so a service and
its task never share a name; the name a task is registered under stays what queued
messages carry."""

from __future__ import annotations

from maubinh_site.celery import app


def _project_tasks() -> dict[str, object]:
    app.loader.import_default_modules()
    return {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}


def test_every_task_function_of_the_project_ends_in_task() -> None:
    tasks = _project_tasks()
    assert {"games.advance_round", "bots.sweep", "tournaments.arena_end"} <= tasks.keys()
    misnamed = {
        name: task.run.__name__  # type: ignore[attr-defined]
        for name, task in tasks.items()
        if not task.run.__name__.endswith("_task")  # type: ignore[attr-defined]
    }
    assert misnamed == {}


def test_no_registered_task_name_carries_the_suffix_of_its_function() -> None:
    assert [name for name in _project_tasks() if name.endswith("_task")] == []
