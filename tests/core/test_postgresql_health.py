"""A kept PostgreSQL connection is checked before reuse by a poll of its socket, not a
round trip (core.postgresql.base), and a connection the server ended is still replaced
before a command uses it (docs/deploy.md, "Failure modes")."""

from __future__ import annotations

import select
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import close_old_connections, connections

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def kept() -> Iterator[Any]:
    """The default connection as daphne's threads and the workers keep it: opened, idle."""
    wrapper = connections["default"]
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


def _ended_by_the_server(wrapper: Any) -> None:
    """Terminate ``wrapper``'s backend from another connection and wait until its FATAL
    and close have reached the socket (the server sends them as it ends)."""
    pid = wrapper.connection.info.backend_pid
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()
    poller = select.poll()
    poller.register(wrapper.connection.fileno(), select.POLLIN)
    assert poller.poll(10_000), "the server never closed the connection"


def test_the_backend_is_the_sites_own(kept: Any) -> None:
    assert type(kept).__module__ == "core.postgresql.base"
    assert kept.vendor == "postgresql"


def test_checking_a_kept_connection_sends_nothing_to_the_server(
    kept: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = kept.connection
    used: list[str] = []

    def refuse(name: str) -> Any:
        def refused(*args: Any, **kwargs: Any) -> Any:
            used.append(name)
            raise AssertionError(f"the health check used {name}")

        return refused

    # Django's own check opens a cursor and sends SELECT 1 through it.
    monkeypatch.setattr(raw, "cursor", refuse("cursor"))
    monkeypatch.setattr(raw, "execute", refuse("execute"))
    assert kept.is_usable()
    assert used == []


def test_a_connection_the_server_ended_is_found_unusable_without_a_query(kept: Any) -> None:
    _ended_by_the_server(kept)
    assert not kept.is_usable()


def test_a_command_after_the_server_ended_the_kept_connection_runs_on_a_new_one(
    kept: Any,
) -> None:
    first = kept.connection.info.backend_pid
    _ended_by_the_server(kept)
    # What Channels and the Celery fix-up do around every command and task.
    close_old_connections()
    with kept.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (now,) = cursor.fetchone()
    assert now != first


def test_a_live_connection_stays_usable_for_as_long_as_it_is_kept(kept: Any) -> None:
    pid = kept.connection.info.backend_pid
    for _ in range(3):
        close_old_connections()
        with kept.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            assert cursor.fetchone() == (pid,)
        time.sleep(0.05)
