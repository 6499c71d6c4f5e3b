"""The Celery app. Timers (round deadlines, reveals, bots) are Celery tasks in every mode."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maubinh_site.settings")

app = Celery("maubinh_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
