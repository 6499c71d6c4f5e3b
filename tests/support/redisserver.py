"""A private redis-server for tests that kill and restart it (never the shared test Redis)."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from tests.support.processes import free_port

REDIS_SERVER = shutil.which("redis-server")


def server_args(port: int, host: str, workdir: Path) -> list[str]:
    """An empty redis-server that saves nothing: killed, it comes back empty."""
    assert REDIS_SERVER is not None
    return [REDIS_SERVER, "--port", str(port), "--bind", host, "--save", "", "--appendonly",
            "no", "--dir", str(workdir), "--protected-mode", "no"]  # fmt: skip


def answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_timeout=1).ping())
    except redis.RedisError:
        return False


class PrivateRedis:
    """An empty, non-persistent Redis on a free port that a test may kill and restart."""

    def __init__(self, workdir: Path, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = free_port()
        self.url = f"redis://{host}:{self.port}/0"
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            server_args(self.port, self.host, self.workdir),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not answers(self.url):
            if time.monotonic() > deadline:
                raise redis.ConnectionError(f"redis-server did not answer at {self.url}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no save, no goodbye; the next start is empty."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None

    def restart_empty(self, down_for: float = 1.0) -> None:
        self.kill()
        time.sleep(down_for)
        self.start()


@contextmanager
def private_redis(workdir: Path, host: str = "127.0.0.1") -> Iterator[PrivateRedis]:
    """A private Redis listening on ``host`` (another address than loopback: reached over a
    link by other network namespaces, tests/support/netns.py)."""
    server = PrivateRedis(workdir, host)
    server.start()
    try:
        yield server
    finally:
        server.kill()
