import subprocess
import time
import uuid

import pytest
import redis
from celery import Celery

from tests.processes import PYTHON, ROOT, RUN_PREFIX, celery_worker, site_env
from tests.services import TEST_DATABASE_URL, TEST_REDIS_URL


def _wait(check, timeout: float = 15.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    return None


EMBEDDED_PROBE = """
import time, uuid, django
django.setup()
from maubinh_site.embedded import start_embedded_worker
from maubinh_site.tasks import heartbeat_task, heartbeat_seen
assert start_embedded_worker()
key = uuid.uuid4().hex
sent = time.monotonic()
heartbeat_task.apply_async((key,), countdown=1)
early = heartbeat_seen(key)
while heartbeat_seen(key) is None and time.monotonic() - sent < 15:
    time.sleep(0.05)
print(early is None, heartbeat_seen(key) is not None, round(time.monotonic() - sent, 2))
"""


def test_a_task_with_a_one_second_countdown_fires_in_the_embedded_worker(tmp_path):
    # In its own process, as `make run` serves: the test process keeps no worker thread.
    env = site_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    result = subprocess.run(
        [PYTHON, "-c", EMBEDDED_PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    not_early, fired, elapsed = result.stdout.split()
    assert not_early == "True"
    assert fired == "True"
    assert float(elapsed) >= 1.0


@pytest.mark.slow
@pytest.mark.redis
@pytest.mark.postgres
def test_a_task_with_a_one_second_countdown_fires_on_a_real_worker_over_redis(tmp_path):
    env = site_env(DATABASE_URL=TEST_DATABASE_URL, REDIS_URL=TEST_REDIS_URL)
    store = redis.Redis.from_url(TEST_REDIS_URL)
    key = uuid.uuid4().hex
    with celery_worker(env, tmp_path / "worker.log"):
        producer = Celery(
            broker=TEST_REDIS_URL,
            broker_transport_options={"global_keyprefix": f"{RUN_PREFIX}:"},
        )
        sent = time.monotonic()
        producer.send_task("maubinh_site.heartbeat", args=(key,), countdown=1)
        seen = _wait(lambda: store.exists(f"{RUN_PREFIX}:1:heartbeat:{key}"))
        elapsed = time.monotonic() - sent
    assert seen, (tmp_path / "worker.log").read_text()[-2000:]
    assert elapsed >= 1.0
