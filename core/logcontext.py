"""Round and table ids carried into every log line of the code that handles them."""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Iterator
from contextlib import contextmanager

_context: contextvars.ContextVar[tuple[tuple[str, object], ...]] = contextvars.ContextVar(
    "game_log_context", default=()
)


@contextmanager
def log_context(**ids: object) -> Iterator[None]:
    """Within this block every log line carries these ids, e.g. ``table=3 round=17``."""
    merged = dict(_context.get())
    merged.update(ids)
    token = _context.set(tuple(merged.items()))
    try:
        yield
    finally:
        _context.reset(token)


class GameContextFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        pairs = _context.get()
        record.game_context = "".join(f" {key}={value}" for key, value in pairs) if pairs else ""
        return True
