"""``examples/bot.py`` run as its author would: a process with a token in its environment,
its output in a log file."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.support.processes import ROOT


def _as_from_a_shell() -> None:
    """In the bot's process before it runs: Ctrl-C as a terminal delivers it. A child inherits
    its parent's ignored and blocked signals, and a pytest-xdist worker's may not be a
    shell's (a CI run's bot once ignored the test's SIGINT and played on for 30 s)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def signals_of(pid: int) -> str:
    """A process's blocked, ignored and caught signals, as /proc shows them (for a failure)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return " ".join(
        line for line in status.splitlines() if line.startswith(("SigBlk", "SigIgn", "SigCgt"))
    )


@contextlib.contextmanager
def example_bot(base: str, token: str, log: Path, *args: str) -> Iterator[subprocess.Popen[bytes]]:
    """The example bot against ``base`` with ``token`` (``args``: its options), killed on
    the way out if it is still running."""
    env = {**os.environ, "MAUBINH_URL": base, "MAUBINH_TOKEN": token, "PYTHONUNBUFFERED": "1"}
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "examples" / "bot.py"), *args],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=_as_from_a_shell,
        )
        try:
            yield process
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
