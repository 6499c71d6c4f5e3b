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


class PrivateRedis:
    """An empty, non-persistent Redis on a free port that a test may kill and restart."""

    def __init__(self, workdir: Path, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = free_port()
        self.url = f"redis://{host}:{self.port}/0"
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", self.host, "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir), "--protected-mode", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(self.url, socket_timeout=1).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
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
