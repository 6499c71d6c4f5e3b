from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bots import tasks as bot_tasks
from games.models import Table
from tests.support.played import quick_table


@pytest.fixture
def person(make_user):  # type: ignore[no-untyped-def]
    return make_user("an", display_name="An")


@pytest.fixture
def bot_table(person) -> Table:  # type: ignore[no-untyped-def]
    return quick_table(person, "Bàn có máy", allow_bots=True, bot_wait_seconds=1)


@dataclass
class Queued:
    """Bot tasks the receivers enqueued, as (task name, args, options)."""

    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)

    def named(self, name: str) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
        return [(args, options) for task, args, options in self.calls if task == name]


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> Queued:
    """Record the bots' tasks instead of sending them to the broker."""
    record = Queued()
    for task in (bot_tasks.fill_table_task, bot_tasks.play_turn_task, bot_tasks.tidy_table_task):

        def apply_async(args: tuple[Any, ...] = (), kwargs: Any = None, _name=task.name, **opts):  # type: ignore[no-untyped-def]
            record.calls.append((_name, tuple(args), opts))

        def delay(*args: Any, _name=task.name) -> None:  # type: ignore[no-untyped-def]
            record.calls.append((_name, tuple(args), {}))

        monkeypatch.setattr(task, "apply_async", apply_async)
        monkeypatch.setattr(task, "delay", delay)
    return record
