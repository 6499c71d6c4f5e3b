from __future__ import annotations

from celery import shared_task
from django.core.cache import cache

from moderation import services


@shared_task(name="moderation.record_seat_ips")
def record_seat_ips(table_id: int) -> int:
    from moderation.receivers import seat_ips_pending_key

    cache.delete(seat_ips_pending_key(table_id))  # before the read: see on_seat_changed
    return services.record_seat_ips(table_id)


@shared_task(name="moderation.record_private_table_visit")
def record_private_table_visit(staff_id: int, table_id: int) -> None:
    services.record_private_table_visit(staff_id, table_id)
