"""Timer tasks. Each takes ids and the state it expects, and calls a guarded service."""

from __future__ import annotations

from celery import shared_task

from games import services


@shared_task(name="games.advance_round", ignore_result=True)
def advance_round(round_id: int, expected_state: str, expected_phase: int) -> None:
    """End arranging, reveal the next chi or settle; stale or duplicate runs do nothing."""
    services.advance_round(round_id, expected_state, expected_phase)


@shared_task(name="games.start_round_when_due", ignore_result=True)
def start_round_when_due(table_id: int, expected_start_at: str) -> None:
    services.start_round_when_due(table_id, expected_start_at)


@shared_task(name="games.sweep", ignore_result=True)
def sweep() -> None:
    """Catch up rounds whose timer was lost (a dead worker, a dropped message)."""
    services.sweep_due()


@shared_task(name="games.close_empty_tables", ignore_result=True)
def close_empty_tables() -> None:
    """Close tables people opened and left empty (TABLE_EMPTY_CLOSE_MINUTES)."""
    services.close_empty_tables()
