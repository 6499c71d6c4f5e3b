"""The processes a chaos run starts: Redis, 2 daphne, 2 workers and beat, each restarted a
second after it dies, as systemd's ``Restart=always`` would. Starting, signalling and
stopping them is the tests' own supervision (tests/support/processes.py)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from benchmarks.chaos import log
from tests.support import redisserver
from tests.support.processes import (
    answers,
    beat_args,
    collect_static,
    compile_bytecode,
    daphne_args,
    free_port,
    site_env,
    spawn,
    stop,
    wait_ready,
    worker_args,
)


class Service:
    """A child process (in its own process group) that the supervisor restarts when it dies."""

    def __init__(self, name: str, args: Sequence[str], env: dict[str, str], logfile: Path) -> None:
        self.name, self.args, self.env, self.logfile = name, list(args), env, logfile
        self.proc: subprocess.Popen[bytes] | None = None
        self.expect_exit = False  # a fault killed it: not an unplanned death
        self.starts = 0
        self.deaths: list[tuple[float, int | None, bool]] = []  # (when, code, planned)
        self.died_at: float | None = None
        self.log_offset = 0

    def start(self) -> None:
        self.log_offset = self.logfile.stat().st_size if self.logfile.exists() else 0
        self.proc = spawn(self.args, self.env, self.logfile, append=True)
        self.starts += 1
        self.expect_exit = False
        self.died_at = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int, planned: bool = True) -> None:
        if self.alive():
            if sig in (signal.SIGKILL, signal.SIGTERM):
                self.expect_exit = planned
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, sig)

    def new_log(self) -> str:
        """What it wrote since its last start."""
        if not self.logfile.exists():
            return ""
        with self.logfile.open("rb") as f:
            f.seek(self.log_offset)
            return f.read().decode(errors="replace")

    def wrote(self, text: str) -> bool:
        return text in self.new_log()

    def wait_ready(self, ready: Callable[[], bool], timeout: float = 60) -> None:
        assert self.proc is not None
        wait_ready(self.proc, ready, self.name, self.new_log, timeout)

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc)


class Stack:
    """Redis, 2 daphne, 2 workers and beat, restarted as a supervisor would."""

    def __init__(self, options: argparse.Namespace, database_url: str, logs: Path) -> None:
        self.options = options
        self.logs = logs
        self.redis_port = free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.env = site_env(
            DATABASE_URL=database_url,
            REDIS_URL=self.redis_url,
            REDIS_PREFIX="chaos",
            # The run's arena is shorter than the page offers (tournaments.arena).
            ARENA_MIN_MINUTES=str(min(3, options.arena_minutes)),
            LOG_LEVEL="WARNING",
            CELERY_LOG_LEVEL="WARNING",
        )
        self.redis = Service(
            "redis",
            redisserver.server_args(self.redis_port, "127.0.0.1", logs),
            self.env,
            logs / "redis.log",
        )
        self.daphne_ports = [free_port() for _ in range(options.daphne)]
        self.bases = [f"http://127.0.0.1:{port}" for port in self.daphne_ports]
        self.daphnes = [
            Service(
                f"daphne{i}",
                daphne_args(port),
                {**self.env, "PGAPPNAME": f"chaos-daphne{i}"},
                logs / f"daphne{i}.log",
            )
            for i, port in enumerate(self.daphne_ports)
        ]
        self.workers = [
            Service(
                f"worker{i + 1}",
                worker_args(f"w{i + 1}", pool="prefork", concurrency=options.concurrency),
                {**self.env, "PGAPPNAME": f"chaos-worker{i + 1}"},
                logs / f"worker{i + 1}.log",
            )
            for i in range(options.workers)
        ]
        self.beat = Service(
            "beat",
            beat_args(logs / "beat-schedule"),
            {**self.env, "PGAPPNAME": "chaos-beat"},
            logs / "beat.log",
        )
        self.services = [self.redis, *self.daphnes, *self.workers, self.beat]
        self.supervising = False

    def start(self) -> None:
        compile_bytecode()  # as a deploy does: every restart starts from it
        collect_static(self.env)
        self.redis.start()
        self.redis.wait_ready(lambda: redisserver.answers(self.redis_url))
        for service in [*self.daphnes, *self.workers, self.beat]:
            service.start()
        for daphne, base in zip(self.daphnes, self.bases, strict=True):
            daphne.wait_ready(partial(answers, base + "/healthz"))
        for worker in self.workers:
            worker.wait_ready(partial(worker.wrote, "ready."))

    async def supervise(self) -> None:
        """Restart whatever died, a second later (systemd's Restart=always, RestartSec=1)."""
        self.supervising = True
        while self.supervising:
            for service in self.services:
                if service.proc is None or service.alive():
                    continue
                now = time.time()
                if service.died_at is None:
                    service.died_at = now
                    service.deaths.append((now, service.proc.returncode, service.expect_exit))
                    if not service.expect_exit:
                        log(f"{service.name} died by itself (exit {service.proc.returncode})")
                elif now - service.died_at >= self.options.restart_delay:
                    service.start()
            await asyncio.sleep(0.25)

    def stop(self) -> None:
        self.supervising = False
        for service in reversed(self.services):
            service.stop()
