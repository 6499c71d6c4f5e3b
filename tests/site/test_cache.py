"""The cache's Redis backend (maubinh_site.cache) shares one client per process."""

from __future__ import annotations

import asyncio
import subprocess
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from channels.db import DatabaseSyncToAsync
from django.core.cache import cache, caches
from django.test import override_settings

from tests.support.processes import PYTHON, ROOT, site_env
from tests.support.services import TEST_REDIS_URL

pytestmark = pytest.mark.redis

SOCKETS = 40


def _cache_settings(backend: str, prefix: str) -> dict[str, Any]:
    return {"default": {"BACKEND": backend, "LOCATION": TEST_REDIS_URL, "KEY_PREFIX": prefix}}


def _as_sockets(work: Any) -> list[Any]:
    """``work`` run as each of SOCKETS websocket consumers runs a command: each in an async
    context of its own, on a pool of two threads (games.consumers.run_command)."""
    threads = ThreadPoolExecutor(max_workers=2)

    async def one_socket() -> Any:
        return await DatabaseSyncToAsync(work, thread_sensitive=False, executor=threads)()

    async def storm() -> list[Any]:
        return await asyncio.gather(*(asyncio.create_task(one_socket()) for _ in range(SOCKETS)))

    try:
        return asyncio.run(storm())
    finally:
        threads.shutdown()


def _note_a_seat() -> Any:
    """What a sit-down does with the cache (bots.services.note_seat_wanted), and the client."""
    key = f"seat-{uuid.uuid4().hex}"
    assert cache.add(key, 1, 30)
    assert cache.get(key) == 1
    return caches["default"]._cache.get_client(key, write=True)


def test_a_storm_of_sockets_shares_one_redis_client_and_a_connection_a_thread(prefix) -> None:  # type: ignore[no-untyped-def]
    with override_settings(CACHES=_cache_settings("maubinh_site.cache.RedisCache", prefix)):
        clients = _as_sockets(_note_a_seat)
    assert len({id(client) for client in clients}) == 1
    pool = clients[0].connection_pool
    # One connection for each thread that used it at once, not one a socket.
    assert 1 <= len(pool._available_connections) + len(pool._in_use_connections) <= 2
    pool.disconnect()


def test_djangos_own_backend_opens_a_client_and_a_pool_a_socket(prefix) -> None:  # type: ignore[no-untyped-def]
    # What maubinh_site.cache is for: each socket's context has a cache handle of its own.
    backend = "django.core.cache.backends.redis.RedisCache"
    with override_settings(CACHES=_cache_settings(backend, prefix)):
        clients = _as_sockets(_note_a_seat)
    assert len({id(client.connection_pool) for client in clients}) == SOCKETS
    for client in clients:
        client.connection_pool.disconnect()


def test_the_site_with_redis_caches_through_the_shared_client(prefix) -> None:  # type: ignore[no-untyped-def]
    env = site_env(REDIS_URL=TEST_REDIS_URL, REDIS_PREFIX=prefix, PYTHONPATH=str(ROOT))
    script = (
        "import django; django.setup()\n"
        "from django.core.cache import cache, caches\n"
        "cache.set('k', 1, 5)\n"
        "print(type(caches['default']).__module__, cache.get('k'))\n"
    )
    done = subprocess.run([PYTHON, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["maubinh_site.cache", "1"]
