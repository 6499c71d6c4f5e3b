"""The Celery app. Timers (round deadlines, reveals, bots) are Celery tasks in every mode."""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import after_setup_logger, task_postrun, task_prerun
from django.db import close_old_connections

from core.logcontext import GameContextFilter

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maubinh_site.settings")

app = Celery("maubinh_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(**_kwargs: object) -> None:
    """Keep a worker's database connection between tasks, as a request would.

    Celery's Django fix-up closes every connection before and after every task (unless
    CELERY_DB_REUSE_MAX, see settings), so each timer step paid for a new PostgreSQL
    connection. Django's own rule applies instead: CONN_MAX_AGE, and a connection that
    saw an error or is unusable is closed.
    """
    close_old_connections()


@after_setup_logger.connect
def _game_context(logger: logging.Logger, **_kwargs: Any) -> None:
    """The worker's lines carry the table and round ids (``core.logcontext``) as the served
    process's do: a worker replaces the root logger's handlers with its own, in the format
    of CELERY_WORKER_LOG_FORMAT (settings), without the filter that adds the ids."""
    for handler in logger.handlers:
        handler.addFilter(GameContextFilter())
