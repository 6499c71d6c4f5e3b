"""Keeps the days' seeds committed ahead even on days nobody opens the daily hand."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from practice import services


@shared_task(name="practice.schedule_daily_deals")
def schedule_daily_deals_task() -> int:
    return services.schedule_daily_deals(timezone.localdate())
