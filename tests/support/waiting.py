"""Polling helpers for tests where a worker, not the test, moves the table on."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


def eventually(probe: Callable[[], T | None], timeout: float, what: str) -> T:
    """Poll ``probe`` until it returns something truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.1)


@contextmanager
def worker_thread(concurrency: int = 4) -> Iterator[None]:
    """A Celery worker on a thread, consuming the in-process broker, and its beat (the
    timers' planner queues every timer due more than a few seconds ahead), as the embedded
    default runs them (maubinh_site.embedded), but stopped at the end of the block."""
    from maubinh_site.embedded import thread_beat, thread_worker

    ready = threading.Event()
    worker = thread_worker(ready, concurrency)
    thread = threading.Thread(target=worker.start, name="celery-test", daemon=True)
    thread.start()
    assert ready.wait(30), "the worker thread did not start"
    beat = thread_beat()
    try:
        yield
    finally:
        beat.stop()
        worker.stop()
        thread.join(10)
