"""The broker's Redis transport (maubinh_site.broker) keeps one Redis client per channel."""

from __future__ import annotations

import os
import subprocess
import threading
from multiprocessing import util

import pytest
import redis
from celery import Celery

from tests.support.processes import PYTHON, ROOT, site_env
from tests.support.services import TEST_REDIS_URL

pytestmark = pytest.mark.redis

SENDS = 50


def _producer(prefix: str, transport: str | None = "maubinh_site.broker:Transport") -> Celery:
    return Celery(
        broker=TEST_REDIS_URL,
        broker_transport=transport,
        broker_transport_options={"global_keyprefix": prefix},
    )


@pytest.fixture
def clients_built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many ``redis.Redis`` objects were built in this process (pid of each)."""
    built: list[int] = []
    original = redis.Redis.__init__

    def counting(self: redis.Redis, *args: object, **kwargs: object) -> None:
        built.append(os.getpid())
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(redis.Redis, "__init__", counting)
    return built


def _queued(prefix: str) -> int:
    server = redis.Redis.from_url(TEST_REDIS_URL)
    try:
        return int(server.llen(f"{prefix}celery"))
    finally:
        server.close()


def test_fifty_publishes_build_one_redis_client_and_all_arrive(prefix, clients_built):
    app = _producer(prefix)
    app.send_task("games.sweep")  # the first publish builds the channel and its client
    clients_built.clear()
    for _ in range(SENDS):
        app.send_task("games.sweep")
    assert clients_built == []
    assert _queued(prefix) == SENDS + 1


def test_kombus_own_transport_builds_a_client_per_publish(prefix, clients_built):
    """What maubinh_site.broker saves: without it, each publish builds a client."""
    app = _producer(prefix, transport=None)
    app.send_task("games.sweep")
    clients_built.clear()
    for _ in range(SENDS):
        app.send_task("games.sweep")
    assert len(clients_built) == SENDS


def test_publishes_from_four_threads_all_arrive_on_clients_bounded_by_the_pool(
    prefix, clients_built
):
    """Each broker connection a thread takes from Celery's pool builds two clients, once:
    kombu's own (``Channel.client``, for consuming) and the kept one; never one a send."""
    app = _producer(prefix)
    errors: list[BaseException] = []

    def send() -> None:
        try:
            for _ in range(SENDS):
                app.send_task("games.sweep")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert _queued(prefix) == 4 * SENDS
    assert len(clients_built) <= 2 * app.conf.broker_pool_limit < 4 * SENDS


def test_a_forked_child_publishes_on_a_client_of_its_own(prefix, clients_built):
    """A prefork Celery worker's child: kombu drops the parent's pool after the fork; the
    child builds its own clients (kombu's and the kept one) once, not one a send."""
    app = _producer(prefix)
    app.send_task("games.sweep")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report what it built, then leave without pytest's clean-up
        status = 1
        try:
            util._run_after_forkers()  # what multiprocessing runs in a new child
            for _ in range(SENDS):
                app.send_task("games.sweep")
            children = [p for p in clients_built if p == os.getpid()]
            os.write(write, str(len(children)).encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    built_in_child = int(os.read(read, 16) or b"-1")
    os.close(read)
    assert status == 0
    assert _queued(prefix) == SENDS + 1
    assert built_in_child <= 2


TRANSPORT_PROBE = (
    "import django; django.setup(); from maubinh_site.celery import app; "
    "t = app.connection_for_write().transport; print(type(t).__module__, type(t).__name__)"
)


@pytest.mark.parametrize(
    ("redis_url", "transport"),
    [(TEST_REDIS_URL, "maubinh_site.broker Transport"), ("", "kombu.transport.memory Transport")],
)
def test_the_sites_celery_uses_the_kept_client_transport_on_redis_only(redis_url, transport):
    env = site_env(REDIS_URL=redis_url, DATABASE_URL="sqlite:///:memory:")
    result = subprocess.run(
        [PYTHON, "-c", TRANSPORT_PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split("\n")[-2] == transport
