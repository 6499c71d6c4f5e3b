"""``examples/bot.py`` run as its author would: a process with a token in its environment,
its output in a log file."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.support.processes import ROOT


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
        )
        try:
            yield process
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
