"""The embedded Celery worker: a thread consuming the in-process ``memory://`` broker.

With no broker configured the served process runs the same task code as production,
countdowns included, so `make run` needs no Redis and no second process.
"""

from __future__ import annotations

import logging
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from django.conf import settings

from maubinh_site.celery import app

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_started: threading.Event | None = None


def start_embedded_worker() -> bool:
    """Start the worker thread once per process; return False when a real broker is in use."""
    global _started
    if not settings.CELERY_EMBEDDED_WORKER:
        return False
    with _lock:
        if _started is not None:
            return True
        ready = threading.Event()
        thread = threading.Thread(target=_run, args=(ready,), name="celery-embedded", daemon=True)
        thread.start()
        ready.wait(timeout=30)
        thread_beat()
        _started = ready
    logger.info("embedded celery worker started on memory://")
    return True


def thread_beat(*, start: bool = True) -> Any:
    """Periodic tasks (the sweeper, the ledger check) and the timers' planner from a beat
    thread in the same process (maubinh_site.beat); returns the beat (``.stop()``),
    started unless ``start`` is false."""
    from celery.beat import EmbeddedService

    schedule = Path(tempfile.gettempdir()) / f"maubinh-celerybeat-{os.getpid()}"
    beat = EmbeddedService(
        app,
        thread=True,
        schedule_filename=str(schedule),
        scheduler_cls=app.conf.beat_scheduler,  # the site's: it runs the timers' planner
    )
    if start:
        beat.start()  # type: ignore[union-attr]
    return beat


def thread_worker(ready: threading.Event, concurrency: int = 4) -> Any:
    """A Celery worker to run on a thread (``.start()``), which sets ``ready`` once it
    consumes. Celery's testing controller is the supported way to run a worker in a
    thread: it installs no signal handlers and stops cleanly with the process."""
    from celery.contrib.testing.worker import TestWorkController

    return TestWorkController(
        app=app,
        pool="threads",
        concurrency=concurrency,
        loglevel="WARNING",
        logfile=None,
        ready_callback=lambda _worker: ready.set(),
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
    )


def _run(ready: threading.Event) -> None:
    thread_worker(ready).start()
