"""Run calls at the same moment, each in its own thread with its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def race(*calls: Callable[[], Any], refusals: tuple[type[Exception], ...]) -> list[Any]:
    """Each call's result, or the refusal (one of ``refusals``) it raised, in call order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = calls[index]()
        except refusals as exc:
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
