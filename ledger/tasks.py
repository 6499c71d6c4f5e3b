from __future__ import annotations

from celery import shared_task

from ledger import services


@shared_task(name="ledger.check")
def check_ledger_task() -> bool:
    """The periodic audit (CELERY_BEAT_SCHEDULE); the result is stored for the dashboard."""
    return services.record_ledger_check().ok
