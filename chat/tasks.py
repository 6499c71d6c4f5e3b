from __future__ import annotations

from celery import shared_task

from chat import services


@shared_task(name="chat.delete_expired")
def delete_expired_task() -> int:
    """The chat's retention rule (docs/chat.md): run by beat every hour."""
    return services.delete_expired()
