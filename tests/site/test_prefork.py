"""The deployed web server (maubinh_site/prefork.py): daphne forked from a parent that has
imported the site, and forked again the moment it dies, on the same held socket. The real
daphne, PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from games import services
from maubinh_site.prefork import BACKLOG, _parse
from tests.support.processes import (
    LISTEN_BACKLOG,
    PYTHON,
    ROOT,
    answers,
    daphne_process,
    free_port,
    listening_socket,
    serving_processes,
    site_env,
    stop,
)
from tests.support.services import TEST_REDIS_URL
from tests.support.wsclient import Player, login, run_async


def _serving(parent: int, other_than: frozenset[int] = frozenset(), count: int = 1) -> list[int]:
    """The parent's serving processes once it has ``count`` of them, none in ``other_than``."""
    deadline = time.monotonic() + 30  # when to give up, not how fast it must be
    while time.monotonic() < deadline:
        pids = serving_processes(parent)
        if len(pids) == count and not set(pids) & other_than:
            return pids
        time.sleep(0.05)
    raise AssertionError(f"{parent} has {serving_processes(parent)}, not {count} new ones")


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return True
    return state == "Z"


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
def test_a_serving_process_that_dies_is_forked_again_and_its_player_reconnects_to_the_new_one(
    live_env: dict[str, str], tmp_path: Path, make_user: Any, password: str
) -> None:
    host = make_user("an")
    table = services.create_table(host, name="Bàn hồi sinh", stake=10)
    with (
        contextlib.closing(listening_socket()) as listener,
        daphne_process(live_env, tmp_path / "daphne.log", listener=listener) as (base, parent),
    ):
        [first] = _serving(parent.pid)
        cookie = login(base, host.username, password)

        async def scenario() -> None:
            player = Player(base, cookie, table.pk, host.username)
            assert (await player.connect())["table"] == table.pk
            os.kill(first, signal.SIGKILL)
            await asyncio.wait_for(player.gone.wait(), timeout=30)
            again = Player(base, cookie, table.pk, host.username)
            snapshot = await asyncio.wait_for(again.connect(), timeout=30)
            assert snapshot["table"] == table.pk
            await again.close()

        run_async(scenario())
        [second] = _serving(parent.pid, frozenset({first}))
        # The same parent forked it: the site was not started afresh.
        assert parent.poll() is None
        stat = Path(f"/proc/{second}/stat").read_text().rpartition(")")[2].split()
        assert int(stat[1]) == parent.pid
        assert "ended (signal SIGKILL): forking another" in (tmp_path / "daphne.log").read_text()


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
def test_stopping_the_parent_stops_every_serving_process_and_the_parent_exits_0(
    live_env: dict[str, str], tmp_path: Path
) -> None:
    port = free_port()
    args = [PYTHON, "-m", "maubinh_site.prefork", "--processes", "2", "-b", "127.0.0.1",
            "-p", str(port), "maubinh_site.asgi:application"]  # fmt: skip
    log = tmp_path / "prefork.log"
    with log.open("wb") as out:
        parent = subprocess.Popen(
            args,
            cwd=ROOT,
            env=live_env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        serving = _serving(parent.pid, count=2)
        deadline = time.monotonic() + 30
        while not answers(f"http://127.0.0.1:{port}/healthz"):
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.1)
        os.kill(parent.pid, signal.SIGTERM)  # the parent alone, as a supervisor may signal it
        assert parent.wait(timeout=30) == 0, log.read_text()[-3000:]
        deadline = time.monotonic() + 30
        while not all(_gone(pid) for pid in serving):
            assert time.monotonic() < deadline, f"still running: {serving}"
            time.sleep(0.1)
        assert "forking another" not in log.read_text()  # stopped, not replaced
    finally:
        stop(parent, signal.SIGKILL)


def test_a_serving_process_that_cannot_start_is_forked_again_after_a_growing_delay_not_in_a_loop(
    tmp_path: Path,
) -> None:
    # Descriptor 97 is no socket: every serving process fails as it starts.
    env = site_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", REDIS_URL=TEST_REDIS_URL)
    args = [PYTHON, "-m", "maubinh_site.prefork", "--fd", "97", "maubinh_site.asgi:application"]
    log = tmp_path / "prefork.log"
    with log.open("wb") as out:
        parent = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        # Forked at all: a first serving process has ended.
        deadline = time.monotonic() + 60
        while "forking another" not in log.read_text():
            assert parent.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.1)
        time.sleep(3)
        # Delays of 0.05, 0.1, 0.2, 0.4, 0.8 and then 1 s: a handful in 3 s, not hundreds.
        assert 1 <= log.read_text().count("forking another") <= 10, log.read_text()[-3000:]
    finally:
        stop(parent)


@pytest.mark.redis
def test_the_embedded_default_is_refused_with_the_reason_not_forked(tmp_path: Path) -> None:
    env = site_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [PYTHON, "-m", "maubinh_site.prefork", "-p", str(free_port()),
         "maubinh_site.asgi:application"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    assert "embedded default" in done.stderr and "serve it with daphne" in done.stderr


def test_an_address_becomes_a_socket_the_parent_holds_and_the_children_serve() -> None:
    processes, held, daphne_argv = _parse(
        ["--processes", "2", "-b", "127.0.0.1", "-p", "0", "--proxy-headers", "app:application"]
    )
    assert held is not None
    with contextlib.closing(held):
        assert processes == 2
        assert daphne_argv == ["--fd", str(held.fileno()), "--proxy-headers", "app:application"]
        assert held.get_inheritable()


def test_a_held_socket_is_passed_on_as_it_is() -> None:
    assert _parse(["--fd", "3", "--proxy-headers", "app:application"]) == (
        1,
        None,
        ["--fd", "3", "--proxy-headers", "app:application"],
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["-u", "/tmp/site.sock", "app:application"],
        ["-e", "tcp:8000", "app:application"],
        ["--fd", "3", "-p", "8000", "app:application"],
        ["--processes", "0", "app:application"],
    ],
    ids=["unix socket", "endpoint", "fd and port", "no process"],
)
def test_options_it_cannot_serve_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        _parse(argv)


def test_the_socket_it_holds_queues_as_many_connections_as_the_systemd_unit() -> None:
    assert BACKLOG == LISTEN_BACKLOG
    unit = (ROOT / "deploy" / "systemd" / "maubinh-daphne@.service").read_text()
    assert "-m maubinh_site.prefork --fd 3 " in unit
