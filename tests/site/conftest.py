from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis

from tests.support import live
from tests.support.processes import server_env
from tests.support.services import TEST_REDIS_URL


@pytest.fixture
def prefix(request: pytest.FixtureRequest) -> Iterator[str]:
    """A Redis key prefix of this test's own (named for its module); its keys are deleted
    afterwards."""
    name = request.module.__name__.rpartition(".")[2].removeprefix("test_")
    prefix = f"test-{name}-{uuid.uuid4().hex[:8]}:"
    yield prefix
    server = redis.Redis.from_url(TEST_REDIS_URL)
    for key in server.scan_iter(f"{prefix}*"):
        server.delete(key)
    server.close()


@pytest.fixture
def live_env() -> dict[str, str]:
    """A live server's environment on the test services (PostgreSQL, Redis)."""
    return server_env(DATABASE_URL=live.test_database_url(), REDIS_URL=TEST_REDIS_URL)
