from __future__ import annotations

from celery import shared_task
from django.core.cache import cache

from moderation.services import addresses, review


@shared_task(name="moderation.record_seat_ips")
def record_seat_ips_task(table_id: int) -> int:
    from moderation.receivers import seat_ips_pending_key

    cache.delete(seat_ips_pending_key(table_id))  # before the read: see on_seat_changed
    return addresses.record_seat_ips(table_id)


@shared_task(name="moderation.record_private_table_visit")
def record_private_table_visit_task(staff_id: int, table_id: int) -> None:
    review.record_private_table_visit(staff_id, table_id)
