"""The social app's periodic task: the sweeper that closes challenges nobody answered."""

from __future__ import annotations

from celery import shared_task

from social import services


@shared_task(name="social.expire_challenges", ignore_result=True)
def expire_challenges_task() -> None:
    """Close every challenge past its ``expires_at`` (each read and answer checks it too)."""
    services.expire_challenges()
