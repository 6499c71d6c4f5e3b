"""Every benchmark script still imports: a refactor that moves what a benchmark imports
(bench_tables in parts, say) breaks it where no test runs it, and the break shows only on
the day someone measures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(p.stem for p in (ROOT / "benchmarks").glob("*.py") if p.stem != "__init__")


def test_every_benchmark_script_imports_what_it_uses() -> None:
    # One child imports them all (as modules: their main() does not run), away from this
    # process's Django settings.
    code = (
        "import importlib, sys, traceback\n"
        "broken = []\n"
        f"for name in {SCRIPTS!r}:\n"
        "    try:\n"
        "        importlib.import_module('benchmarks.' + name)\n"
        "    except Exception:\n"
        "        broken.append(name + ': ' + traceback.format_exc().splitlines()[-1])\n"
        "print('\\n'.join(broken))\n"
        "sys.exit(1 if broken else 0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
