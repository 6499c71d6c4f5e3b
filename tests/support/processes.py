"""Start the real stack (daphne, Celery workers) as child processes: for integration tests,
the benchmarks and the chaos harness (which restarts them as a supervisor would)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
ASGI_APP = "maubinh_site.asgi:application"


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


def server_env(**overrides: str) -> dict[str, str]:
    """``site_env`` for a server that people log in to with a password: the tests' fast
    password hashing (tests/server_settings.py), everything else production's."""
    return site_env(DJANGO_SETTINGS_MODULE="tests.server_settings", **overrides)


def answers(url: str) -> bool:
    """Whether a server answers at ``url``, whatever the status (503 while a dependency is
    down is an answer)."""
    try:
        urllib.request.urlopen(url, timeout=2).close()
        return True
    except urllib.error.HTTPError:
        return True  # the server answers; the status is the caller's business
    except (urllib.error.URLError, OSError):
        return False


def wait_for_http(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not answers(url):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url} did not answer within {timeout}s") from None
        time.sleep(0.2)


def wait_ready(
    proc: subprocess.Popen[bytes],
    ready: Callable[[], bool],
    what: str,
    output: Callable[[], str],
    timeout: float = 30.0,
) -> None:
    """Wait until ``ready()``; a process that exits first, or a timeout, raises with the
    tail of its ``output()``."""
    deadline = time.monotonic() + timeout
    while not ready():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start:\n{output()[-3000:]}")
        time.sleep(0.2)


def spawn(
    args: Sequence[str],
    env: Mapping[str, str],
    log: Path,
    append: bool = False,
    pass_fds: Sequence[int] = (),
) -> subprocess.Popen[bytes]:
    """A child process in its own process group (signals reach its children too), its
    output written to ``log`` (after what is there with ``append``); ``pass_fds``: file
    descriptors it inherits (a held listening socket)."""
    with log.open("ab" if append else "wb") as out:
        return subprocess.Popen(
            list(args),
            cwd=ROOT,
            env=dict(env),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            pass_fds=tuple(pass_fds),
        )


@contextmanager
def running(
    args: list[str], env: Mapping[str, str], log: Path, pass_fds: Sequence[int] = ()
) -> Iterator[subprocess.Popen[bytes]]:
    """Run a child process for the duration of the block, in its own process group."""
    proc = spawn(args, env, log, pass_fds=pass_fds)
    try:
        yield proc
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Signal the process group (resumed first: a stopped group acts on no other signal) and
    wait; what is still there 10 s later is killed."""
    if proc.poll() is not None:
        return
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGCONT)
        os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def manage(env: Mapping[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``manage.py ARGS`` in a child process with ``env``, its output captured."""
    return subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=dict(env), capture_output=True, text=True
    )


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


_bytecode_compiled = False


def compile_bytecode() -> None:
    """The project's modules compiled once, as a deploy does (docs/deploy.md, Processes):
    where the environment sets PYTHONDONTWRITEBYTECODE, every process started would
    otherwise compile each module it imports again (a fresh daphne's start, after a crash)."""
    global _bytecode_compiled
    if not _bytecode_compiled:
        subprocess.run(
            [PYTHON, "-m", "compileall", "-q", "-j", "0", "-x", BYTECODE_SKIP, "."],
            cwd=ROOT,
            check=True,
        )
        _bytecode_compiled = True


BYTECODE_SKIP = r"/(\.venv|node_modules|test-artifacts|staticfiles|\.git)/"
"""What ``compile_bytecode`` leaves out (the Makefile's ``bytecode`` target does the same)."""


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
    app: str = ASGI_APP,
    listener: socket.socket | None = None,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Like ``daphne``, also yielding the process (for tests that kill it).

    ``prefix`` runs it through another command (``ip netns exec NAME``: on another "host");
    ``app`` serves another ASGI application than the site (benchmarks/bench_floor.py's relay);
    ``listener``: a listening socket the caller holds (``listening_socket``), served with
    ``--fd`` as the systemd socket unit has daphne serve it (``port`` and ``host`` are its own).
    """
    if app == ASGI_APP and env.get("DEBUG", "").lower() not in {"1", "true", "yes", "on"}:
        collect_static(env)
    fds: tuple[int, ...] = ()
    if listener is not None:
        host, port = listener.getsockname()[:2]
        fds = (listener.fileno(),)
    port = port or free_port()
    args = daphne_args(port, host, prefix, app, fd=fds[0] if fds else None, embedded=embedded(env))
    with running(args, env, log, fds) as proc:
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
    args = worker_args(name, pool, concurrency, beat, prefix)
    with running(args, env, log) as proc:
        wait_ready(proc, lambda: b"ready." in log.read_bytes(), "celery worker", log.read_text)
        yield proc


def embedded(env: Mapping[str, str]) -> bool:
    """Whether ``env`` runs the embedded default: no broker, so the timers run in a thread
    of the served process (maubinh_site/settings.py, ``CELERY_EMBEDDED_WORKER``)."""
    return not (env.get("CELERY_BROKER_URL") or env.get("REDIS_URL"))


def daphne_args(
    port: int,
    host: str = "127.0.0.1",
    prefix: Sequence[str] = (),
    app: str = ASGI_APP,
    fd: int | None = None,
    embedded: bool = False,
) -> list[str]:
    """The command that serves the site (or ``app``) on ``host:port``, or on the inherited
    listening socket ``fd`` (``listening_socket``), as deployed: daphne forked from a parent
    that imported the site (maubinh_site/prefork.py). The process started is the parent;
    its process group holds the serving process too (``stop`` signals both). The embedded
    default is served by daphne itself, as ``make run`` serves it (its timers' thread would
    not survive a fork)."""
    where = ["--fd", str(fd)] if fd is not None else ["-b", host, "-p", str(port)]
    server = ["daphne"] if embedded else ["maubinh_site.prefork"]
    return [*prefix, PYTHON, "-m", *server, *where, app]


def serving_processes(parent: int) -> list[int]:
    """The serving processes a prefork parent (``daphne_args``) has forked, by pid."""
    try:
        return [
            int(pid) for pid in Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        ]
    except OSError:
        return []


LISTEN_BACKLOG = 4096
"""The queue of a held listening socket, as deploy/systemd/maubinh-daphne@.socket sets it.
daphne's own ``-b``/``-p`` listens with Twisted's default of 50: a storm of sockets beyond
it is dropped by the kernel, and each client tries its SYN again a second later."""


def listening_socket(port: int = 0, host: str = "127.0.0.1") -> socket.socket:
    """A listening TCP socket for daphne to serve (``daphne_process(listener=)``), held by
    the caller as the systemd socket unit holds it: while no daphne runs (killed, starting)
    a client's connection waits in its queue instead of being refused, and the next daphne
    takes it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(LISTEN_BACKLOG)
    return sock


def celery_args(*command: str, prefix: Sequence[str] = ()) -> list[str]:
    """A ``celery`` command of the site's app (``worker …``, ``beat …``)."""
    return [*prefix, PYTHON, "-m", "celery", "-A", "maubinh_site", *command]


def worker_args(
    name: str,
    pool: str = "solo",
    concurrency: int = 1,
    beat: Path | None = None,
    prefix: Sequence[str] = (),
) -> list[str]:
    """A Celery worker named ``name@host``; with ``beat`` (a schedule file) it runs the beat."""
    args = celery_args(
        "worker",
        f"--pool={pool}",
        f"--concurrency={concurrency}",
        "--loglevel=INFO",
        f"--hostname={name}@%h",
        "--without-gossip",
        "--without-mingle",
        prefix=prefix,
    )
    if beat is not None:
        args += ["--beat", f"--schedule={beat}"]
    return args


def beat_args(schedule: Path) -> list[str]:
    """The Celery beat on its own (one per site, docs/deploy.md)."""
    return celery_args("beat", "--loglevel=INFO", f"--schedule={schedule}")
