"""Bot actions as Celery tasks: ids and the state they expect in, a guarded service call.

Like the timers (games.tasks), a task that finds the state moved on does nothing, so a
duplicate, a retry or a late delivery is harmless.
"""

from __future__ import annotations

from celery import shared_task

from bots import services


@shared_task(name="bots.fill_table", ignore_result=True)
def fill_table_task(table_id: int, expected_seated: list[int]) -> None:
    """Bots take the free seats if nobody came or went since this was scheduled."""
    services.fill_table(table_id, expected_seated)


@shared_task(name="bots.play_turn", ignore_result=True)
def play_turn_task(round_id: int, bot_user_id: int, expected_phase: int) -> None:
    """One bot arranges its own hand and submits it, if it still has to."""
    services.play_turn(round_id, bot_user_id, expected_phase)


@shared_task(name="bots.tidy_table", ignore_result=True)
def tidy_table_task(table_id: int) -> None:
    """Between rounds: bots leave, make room or get topped up."""
    services.tidy_table(table_id)


@shared_task(name="bots.sweep", ignore_result=True)
def sweep_task() -> None:
    """Play the turns whose task was lost, as games.sweep does for the timers."""
    services.catch_up_turns()
