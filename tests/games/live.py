"""The real stack for live-table tests: two daphne processes and a Celery worker with beat,
on the test PostgreSQL database and the test Redis."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.hashers import make_password

from tests.processes import celery_worker, daphne, site_env, stop
from tests.services import TEST_REDIS_URL


def test_database_url() -> str:
    db = settings.DATABASES["default"]
    return (
        f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


@dataclass
class Stack:
    bases: list[str]
    env: dict[str, str]
    logs: Path
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    _exits: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    def start_worker(self, name: str) -> subprocess.Popen[bytes]:
        worker = self._exits.enter_context(
            celery_worker(
                self.env, self.logs / f"{name}.log", name=name, beat=self.logs / f"{name}-beat"
            )
        )
        self.workers.append(worker)
        return worker

    def kill_worker(self, worker: subprocess.Popen[bytes], sig: int) -> None:
        stop(worker, sig)

    def log_tail(self) -> str:
        parts = []
        for log in sorted(self.logs.glob("*.log")):
            parts.append(f"--- {log.name}\n{log.read_text()[-2500:]}")
        return "\n".join(parts)


@contextlib.contextmanager
def live_stack(logs: Path, servers: int = 2) -> Iterator[Stack]:
    env = site_env(DATABASE_URL=test_database_url(), REDIS_URL=TEST_REDIS_URL)
    with contextlib.ExitStack() as exits:
        bases = [exits.enter_context(daphne(env, logs / f"daphne{i}.log")) for i in range(servers)]
        stack = Stack(bases, env, logs)
        exits.enter_context(stack._exits)
        stack.start_worker("w1")
        yield stack


LIVE_MARKS = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]
"""A live test module's ``pytestmark``: the real services, a database flushed per test."""


def with_server_passwords(users: list[Any], password: str) -> list[Any]:
    """The servers hash with PBKDF2 (the tests' fast MD5 is in-process only)."""
    for user in users:
        user.password = make_password(password, hasher="pbkdf2_sha256")
        user.save(update_fields=["password"])
    return users
