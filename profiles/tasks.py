from __future__ import annotations

from celery import shared_task

from profiles import services


@shared_task(name="profiles.record_stats")
def record_stats_task() -> int:
    """The periodic step (CELERY_BEAT_SCHEDULE): add newly settled rounds to the summary."""
    return services.record_settled_rounds()
