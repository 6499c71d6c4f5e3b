from __future__ import annotations

from celery import shared_task

from moderation import services


@shared_task(name="moderation.record_seat_ips")
def record_seat_ips(table_id: int) -> int:
    return services.record_seat_ips(table_id)
