"""A worker's log lines carry the table and round ids, as the served process's do: Celery
sets up the worker's own handlers (CELERY_WORKER_LOG_FORMAT), and maubinh_site.celery adds
the filter that puts the ids (core.logcontext) on every line they write."""

from __future__ import annotations

import io
import logging

from celery.signals import after_setup_logger
from django.conf import settings

from core.logcontext import log_context


def test_a_worker_line_names_its_table_and_round_and_a_line_outside_a_round_still_writes():
    import maubinh_site.celery  # noqa: F401  (connects the handler setup)

    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter(settings.CELERY_WORKER_LOG_FORMAT))
    logger = logging.getLogger("test.worker.root")
    logger.propagate = False
    logger.handlers = [handler]
    logger.setLevel(logging.INFO)
    # What Celery sends once it has set up the worker's logging.
    after_setup_logger.send(sender=None, logger=logger, loglevel=logging.INFO, logfile=None,
                            format=settings.CELERY_WORKER_LOG_FORMAT, colorize=False)  # fmt: skip
    with log_context(table=3, round=17):
        logger.info("settled")
    logger.info("w1@host ready.")
    lines = out.getvalue().splitlines()
    assert lines[0].endswith("] table=3 round=17 settled"), lines
    assert lines[1].endswith("] w1@host ready."), lines
