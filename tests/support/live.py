"""The real stack for live-table tests: two daphne processes and a Celery worker with beat,
on the test PostgreSQL database and the test Redis."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests.support.processes import celery_worker, daphne, server_env, stop
from tests.support.services import TEST_REDIS_URL
from tests.support.wsclient import Player, login

MARKS = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]
"""A live test's marks: the real PostgreSQL and Redis, slow, its data committed for the
server processes to see."""


def test_database_address() -> tuple[str, int]:
    db = settings.DATABASES["default"]
    return db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)


def test_database_url() -> str:
    return database_url_at(test_database_address())


def database_url_at(address: tuple[str, int]) -> str:
    """The test database's URL at another address (a relay's)."""
    db = settings.DATABASES["default"]
    host, port = address
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{host}:{port}/{db['NAME']}"


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
    env = server_env(DATABASE_URL=test_database_url(), REDIS_URL=TEST_REDIS_URL)
    with contextlib.ExitStack() as exits:
        bases = [exits.enter_context(daphne(env, logs / f"daphne{i}.log")) for i in range(servers)]
        stack = Stack(bases, env, logs)
        exits.enter_context(stack._exits)
        stack.start_worker("w1")
        yield stack


async def connect_all(
    stack: Stack,
    users: list[Any],
    password: str,
    table_id: int,
    ready: Callable[[dict[str, Any]], bool] | None = None,
) -> list[Player]:
    """Each user logged in and on the table's socket, spread over the servers in turn; with
    ``ready``, each waits for a message it matches before the next one connects."""
    clients = []
    for index, user in enumerate(users):
        base = stack.bases[index % len(stack.bases)]
        cookie = await asyncio.to_thread(login, base, user.username, password)
        client = Player(base, cookie, table_id, user.username)
        await client.connect()
        if ready is not None:
            await client.wait_for(ready)
        clients.append(client)
    return clients


# Table talk is not table state: its messages carry no version (docs/protocol.md).
TABLE_TALK = frozenset(
    {"chat_state", "chat_role", "chat_message", "chat_reaction", "chat_settings"}
)
