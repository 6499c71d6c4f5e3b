"""The cache's Redis backend (Django's), with one Redis client per server in a process.

Django keeps a cache handle per async context (``django.core.cache.caches`` is a
context-local ``asgiref.local.Local``), and each handle's client builds its own connection
pool. Every websocket consumer runs in a context of its own, so every socket opened a Redis
connection of its own at its first cache use (a sit-down notes the seat in the cache:
``bots.services.note_seat_wanted``), kept as long as the socket: a storm of 800 arrivals
opened 800 connections, each a TCP connect and a handshake on daphne's CPU (py-spy, 7 Dec
2026: 9 % of daphne's busy time in the warm-up of ``benchmarks/bench_tables.py``). And every
call built a ``redis.Redis``, which copies its response callbacks (as kombu's transport did:
``maubinh_site.broker``).

Here every handle of the process shares one client, and so one pool, per server and
options. Safe across threads: a ``redis.Redis`` takes a connection from its pool per
command (redis-py's pool is thread-safe). Safe across fork: the pool finds itself in a new
process and drops the parent's connections (``ConnectionPool._checkpid``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, ClassVar

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class SharedClient(RedisCacheClient):
    """Django's client, whose ``redis.Redis`` for a server is the process's one."""

    # Django's own, set by its __init__ (not in its type stubs).
    _servers: list[str]
    _pool_class: Any
    _pool_options: dict[str, Any]
    _client: Any
    _get_connection_pool_index: Callable[[bool], int]

    _shared: ClassVar[dict[tuple[Any, ...], Any]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        server = self._servers[self._get_connection_pool_index(write)]
        which = (server, self._pool_class, repr(sorted(self._pool_options.items())))
        client = self._shared.get(which)
        if client is None:
            with self._lock:
                client = self._shared.get(which)
                if client is None:
                    pool = self._pool_class.from_url(server, **self._pool_options)
                    client = self._shared[which] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` sharing its client (``SharedClient``)."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClient
