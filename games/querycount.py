"""Database queries counted by the step of the game that made them: a benchmark's gauge.

Off unless ``QUERY_COUNT_DIR`` is set (``benchmarks/bench_tables.py`` sets it for the
server processes it starts); then every query of the process is counted under the step
running it: a table command (``submit``, ``sit``…), a socket's ``connect``, or a timer
task, named for what it did: ``deal``, ``showdown`` (arranging ended), ``reveal``,
``settlement`` (it wrote to the ledger) or ``<task> (no change)`` (a timer that found the
round had moved on). Queries outside any step (handshakes, heartbeats, the lobby) count
as ``other``. Every second the totals so far go to ``<dir>/<pid>.json`` as
``{step: [runs, queries]}``, so a process killed with -9 loses at most a second of them.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings

OTHER = "other"
LATE_BUCKETS_MS = (10, 25, 50, 100, 250, 500, 1000, 2000, 5000)


@dataclass
class _Run:
    name: str
    queries: int = 0
    writes: bool = False
    ledger: bool = False
    classify: bool = False  # a timer task: named by what its statements did (_task_step)


_current: ContextVar[_Run | None] = ContextVar("querycount_run", default=None)
_totals: dict[str, list[int]] = {}
_lock = threading.Lock()
_enabled = False


@contextmanager
def step(name: str) -> Iterator[None]:
    """Count the queries of this block under ``name`` (nothing when counting is off)."""
    if not _enabled:
        yield
        return
    token = _current.set(_Run(name))
    try:
        yield
    finally:
        run = _current.get()
        _current.reset(token)
        if run is not None:
            _add(run.name, run.queries)


def _add(name: str, queries: int, runs: int = 1) -> None:
    with _lock:
        totals = _totals.setdefault(name, [0, 0])
        totals[0] += runs
        totals[1] += queries


_WRITES = re.compile(r"^\s*(?:INSERT|UPDATE|DELETE)\b|\bAS \(\s*(?:INSERT|UPDATE|DELETE)\b", re.I)


def _writes(sql: str) -> bool:
    """A statement that writes: one that starts with its verb, or whose ``WITH`` parts write
    (a step's last writes are one such statement: games.services.writes)."""
    return bool(_WRITES.search(sql))


def _count(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    run = _current.get()
    if run is None:
        _add(OTHER, 1, runs=0)
    else:
        run.queries += 1
        if run.classify:  # not for a command: scanning its SQL cost daphne 2% of its CPU
            run.writes = run.writes or _writes(sql)
            run.ledger = run.ledger or "ledger_" in sql
    return execute(sql, params, many, context)


def _task_step(task_name: str, args: Any, run: _Run) -> str:
    """What a timer task did, from its name, its arguments and its queries."""
    if not run.writes:
        return f"{task_name} (no change)"
    if task_name == "games.start_round_when_due":
        return "deal"
    if task_name == "games.advance_round":
        # The showdown's later chi have no step of their own (games.services.showdown).
        if run.ledger:
            return "settlement"
        return "showdown" if args and args[1] == "arranging" else "settlement"
    return task_name


def late_bucket(late_ms: float) -> str:
    """The bucket a lateness falls in: the first upper bound it does not pass."""
    return next((str(upper) for upper in LATE_BUCKETS_MS if late_ms <= upper), "inf")


def _task_started(task_id: str, task: Any, args: Any = None, **_kwargs: Any) -> None:
    task.request.querycount_token = _current.set(_Run(task.name, classify=True))
    eta = task.request.eta
    if eta:
        late_ms = (time.time() - datetime.fromisoformat(eta).timestamp()) * 1000
        _add(f"late:{task.name}:{late_bucket(late_ms)}", 0)


def _task_ended(task_id: str, task: Any, args: Any = None, **_kwargs: Any) -> None:
    token = getattr(task.request, "querycount_token", None)
    run = _current.get()
    if token is None or run is None:
        return
    _current.reset(token)
    _add(_task_step(task.name, args, run), run.queries)


def _write_forever(path: Path) -> None:
    while True:
        with _lock:
            text = json.dumps(_totals)
        # Through a new file renamed into place: never half a file for the reader.
        with contextlib.suppress(OSError):  # a file descriptor closed under us: next time
            path.with_suffix(".tmp").write_text(text)
            path.with_suffix(".tmp").replace(path)
        time.sleep(1.0)


def install() -> None:
    """Count this process's queries if QUERY_COUNT_DIR is set (called once, at start)."""
    global _enabled
    if not settings.QUERY_COUNT_DIR or _enabled:
        return
    from celery.signals import task_postrun, task_prerun
    from django.db.backends.signals import connection_created

    _enabled = True

    def wrap(sender: Any, connection: Any, **_kwargs: Any) -> None:
        if _count not in connection.execute_wrappers:
            connection.execute_wrappers.append(_count)

    connection_created.connect(wrap, weak=False, dispatch_uid="games.querycount")
    task_prerun.connect(_task_started, weak=False, dispatch_uid="games.querycount.start")
    task_postrun.connect(_task_ended, weak=False, dispatch_uid="games.querycount.end")
    # One file per process: a prefork worker's children each write their own.
    state = {"pid": 0}

    def start_writer() -> None:
        global _lock
        if state["pid"] != os.getpid():
            if state["pid"]:  # a forked child: the writer may have held the lock at the fork
                _lock = threading.Lock()
            state["pid"] = os.getpid()
            _totals.clear()  # a forked child starts from zero
            path = Path(settings.QUERY_COUNT_DIR) / f"{os.getpid()}.json"
            threading.Thread(target=_write_forever, args=(path,), daemon=True).start()

    start_writer()
    os.register_at_fork(after_in_child=start_writer)
