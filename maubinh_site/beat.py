"""Celery beat's scheduler: the site's periodic tasks, and the round timers' planner run
in beat's own process every second (``games.services.timers.plan_timers``).

The planner runs here rather than as a periodic task because it is what queues the timers:
a task would wait in the workers' queue behind the very steps it is to keep on time, and a
busy minute would make every timer planned late. Beat queues nothing else that often, so
it has the time; a scheduler that reads the database in beat is what Celery's Django
fix-up prepares beat for (``beat_embedded_init`` closes the connections a forked beat
inherited).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery.beat import PersistentScheduler

logger = logging.getLogger(__name__)


class Scheduler(PersistentScheduler):
    """PersistentScheduler (the schedule from settings.CELERY_BEAT_SCHEDULE, its last runs
    kept in beat's schedule file), with the timers' planner every ``PLAN_SECONDS``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plan_at = 0.0

    def tick(self, *args: Any, **kwargs: Any) -> float:
        from games.services.timers import PLAN_SECONDS

        now = time.monotonic()
        if now >= self._plan_at:
            self._plan_at = now + PLAN_SECONDS
            plan()
        interval = super().tick(*args, **kwargs)
        return min(interval, max(self._plan_at - time.monotonic(), 0.0))


def plan() -> None:
    """One run of the planner, with Django's rule for a kept connection (CONN_MAX_AGE, one
    that saw an error is closed) as around a request; a failure is logged and the next
    run, a second later, covers its slice too."""
    from django.db import close_old_connections

    from games.services.timers import plan_timers

    close_old_connections()
    try:
        plan_timers()
    except Exception:
        logger.exception("the timers' planner failed; the next run covers its slice")
