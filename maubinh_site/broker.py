"""The Celery broker's Redis transport (kombu's), with one Redis client per channel.

kombu's Redis channel builds a new ``redis.Redis`` for every command it sends outside
its consumer's own connection (``Channel.conn_or_acquire``): every publish (``apply_async``,
``delay``: each round timer, each bot turn), and in the worker each task's record among the
unacknowledged and its ack. A client shares the channel's connection pool, so no socket is
opened, but building one copies its ~165 response callbacks: about a quarter of the CPU of
an ``apply_async`` (``tests/site/test_broker.py`` counts the clients). Here a channel builds
one and keeps it.

Safe across threads: a ``redis.Redis`` takes a connection from its pool per command, and
Celery's producer pool hands each thread its own broker connection (and so channel)
anyway. Safe across fork: kombu drops the channel's pool in a forked child
(``Channel._after_fork``); the kept client belongs to the pool it was built on and is
rebuilt on the next one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kombu.transport import redis


class Channel(redis.Channel):
    _kept_client: Any = None

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        if client:
            yield client
            return
        pool = self.pool
        kept = self._kept_client
        if kept is None or kept.connection_pool is not pool:
            kept = self._kept_client = self._create_client()  # type: ignore[attr-defined]
        yield kept


class Transport(redis.Transport):
    """``kombu.transport.redis.Transport`` whose channels keep one client (above)."""

    Channel = Channel
