"""Timer tasks. Each takes ids and the state it expects, and calls a guarded service.

A task is named for the service it calls, with ``_task`` (``advance_round_task`` calls
``services.advance_round``); its registered name (``name=``) is the one it was always
queued under, so a message sent before a deploy still finds its task.

A timer step that meets a transient database fault (a connection the server ended, a
lock not granted in time, a deadlock) is retried with backoff: each step is idempotent
(it carries the state and phase it expects and does nothing once the round moved on),
so a retry, a duplicate or a stale delivery never acts twice. The sweeper remains the
backstop for a timer that is lost altogether.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from games import services
from games.errors import TableBusy

TRANSIENT = (OperationalError, InterfaceError, TableBusy)
"""Faults worth trying again: the connection or the lock, not the request."""

RETRY: dict[str, Any] = {
    "autoretry_for": TRANSIENT,
    # 0–1 s, 0–2 s, 0–4 s, then at most 8 s apart (full jitter): a round is late by about
    # a second after one fault, and many timers hit at once do not retry in step.
    "retry_backoff": True,
    "retry_backoff_max": 8,
    "retry_jitter": True,
    "max_retries": 12,
}


@shared_task(name="games.advance_round", ignore_result=True, **RETRY)
def advance_round_task(round_id: int, expected_state: str, expected_phase: int) -> None:
    """End arranging, reveal the next chi or settle; stale or duplicate runs do nothing."""
    services.advance_round(round_id, expected_state, expected_phase)


@shared_task(name="games.start_round_when_due", ignore_result=True, **RETRY)
def start_round_when_due_task(table_id: int, expected_start_at: str) -> None:
    services.start_round_when_due(table_id, expected_start_at)


@shared_task(name="games.sweep", ignore_result=True)
def sweep_task() -> None:
    """Catch up rounds whose timer was lost (a dead worker, a dropped message), and drop
    the sockets of processes that died (their heartbeat stopped)."""
    services.sweep_due_rounds()
    services.expire_connections()


@shared_task(name="games.close_empty_tables", ignore_result=True)
def close_empty_tables_task() -> None:
    """Close tables people opened and left empty (TABLE_EMPTY_CLOSE_MINUTES)."""
    services.close_empty_tables()
