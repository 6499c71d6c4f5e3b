"""Start the real stack (daphne, Celery workers) as child processes for integration tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# One Redis namespace per test run: concurrent runs on one machine never share queues or groups.
RUN_PREFIX = f"mbtest{os.getpid()}"


def site_env(**overrides: str) -> dict[str, str]:
    """An environment for a child process of the site: production-like unless overridden."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "maubinh_site.settings",
            "DEBUG": "false",
            "SECRET_KEY": "integration-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_COOKIES": "false",
            "REDIS_PREFIX": RUN_PREFIX,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.update(overrides)
    return env


def wait_for_http(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return  # the server answers; the status is the caller's business
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not answer within {timeout}s") from None
            time.sleep(0.2)


@contextmanager
def running(
    args: list[str], env: Mapping[str, str], log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """Run a child process for the duration of the block, in its own process group."""
    with log.open("wb") as out:
        proc = subprocess.Popen(
            args,
            cwd=ROOT,
            env=dict(env),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            yield proc
        finally:
            stop(proc)


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


_static_collected = False
# Set once the files are collected for the whole run (by the pytest-xdist controller before
# its workers start): a second collectstatic would rewrite the manifest under running servers.
STATIC_COLLECTED = "MAUBINH_TEST_STATIC_COLLECTED"


def collect_static(env: Mapping[str, str]) -> None:
    """Production settings serve hashed static files: collect them once per test run."""
    global _static_collected
    if not _static_collected and os.environ.get(STATIC_COLLECTED) != "1":
        subprocess.run(
            [PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=dict(env),
            check=True,
        )
        _static_collected = True


@contextmanager
def daphne(env: Mapping[str, str], log: Path, port: int | None = None) -> Iterator[str]:
    """Serve the site with daphne; yields its base URL once it answers."""
    with daphne_process(env, log, port) as (base, _proc):
        yield base


@contextmanager
def daphne_process(
    env: Mapping[str, str],
    log: Path,
    port: int | None = None,
    host: str = "127.0.0.1",
    prefix: Sequence[str] = (),
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Like ``daphne``, also yielding the process (for tests that kill it).

    ``prefix`` runs it through another command (``ip netns exec NAME``: on another "host").
    """
    if env.get("DEBUG", "").lower() not in {"1", "true", "yes", "on"}:
        collect_static(env)
    port = port or free_port()
    args = [
        *prefix,
        PYTHON,
        "-m",
        "daphne",
        "-b",
        host,
        "-p",
        str(port),
        "maubinh_site.asgi:application",
    ]
    with running(args, env, log) as proc:
        base = f"http://{host}:{port}"
        try:
            wait_for_http(base + "/healthz")
        except TimeoutError:
            proc.poll()
            raise RuntimeError(f"daphne did not start:\n{log.read_text()[-3000:]}") from None
        yield base, proc


@contextmanager
def celery_worker(
    env: Mapping[str, str],
    log: Path,
    name: str = "w1",
    beat: Path | None = None,
    pool: str = "solo",
    concurrency: int = 1,
    prefix: Sequence[str] = (),
) -> Iterator[subprocess.Popen[bytes]]:
    """A Celery worker process; with ``beat`` (a schedule file) it also runs the beat.

    ``prefix`` runs it through another command (``ip netns exec NAME``: on another "host").
    """
    args = [
        *prefix,
        PYTHON,
        "-m",
        "celery",
        "-A",
        "maubinh_site",
        "worker",
        f"--pool={pool}",
        f"--concurrency={concurrency}",
        "--loglevel=INFO",
        f"--hostname={name}@%h",
        "--without-gossip",
        "--without-mingle",
    ]
    if beat is not None:
        args += ["--beat", f"--schedule={beat}"]
    with running(args, env, log) as proc:
        deadline = time.monotonic() + 30
        while b"ready." not in log.read_bytes():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"celery worker did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield proc
