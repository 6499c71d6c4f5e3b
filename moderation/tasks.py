from __future__ import annotations

from celery import shared_task

from moderation import services


@shared_task(name="moderation.record_seat_ips")
def record_seat_ips(table_id: int) -> int:
    return services.record_seat_ips(table_id)


@shared_task(name="moderation.record_private_table_visit")
def record_private_table_visit(staff_id: int, table_id: int) -> None:
    services.record_private_table_visit(staff_id, table_id)
