"""Every user-facing string has a Vietnamese translation, in templates, Python and scripts.

``makemessages`` is re-run on a copy of the project (so the real catalogues are untouched),
for every locale directory and both domains (``django`` and the scripts' ``djangojs``);
any msgid left without a Vietnamese msgstr, or marked fuzzy, fails the test with its text.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
SKIP_DIRS = {".git", ".venv", "staticfiles", "test-artifacts", "node_modules", "tests"}
SKIP_DIRS |= {"benchmarks"}
MAKEMESSAGES = ["makemessages", "-l", "vi", "-l", "en", "--no-wrap", "--no-location"]

pytestmark = pytest.mark.skipif(
    shutil.which("xgettext") is None, reason="GNU gettext (xgettext) is not installed"
)


def _locale_dirs(root: Path) -> list[Path]:
    """Directories that own a ``locale/`` folder: the project root and each app."""
    found = [root] if (root / "locale").is_dir() else []
    found += sorted(p.parent for p in root.glob("*/locale") if p.is_dir() and p.parent != root)
    return found


# Every run in one process: Django starts once, not once for each of the 2 × 15 runs.
_MAKE_ALL = """
import json, os, sys
import django
from django.core.management import call_command
django.setup()
for where, options in json.loads(sys.argv[1]):
    os.chdir(where)
    call_command("makemessages", *options, verbosity=0)
"""


def _makemessages(root: Path, dirs: list[Path], apps: list[Path]) -> None:
    """makemessages in each of ``dirs``, for both domains, as `make messages` runs it."""
    runs = []
    for where in dirs:
        ignores = [f"--ignore={d}" for d in SKIP_DIRS]
        if where == root:  # apps with their own catalogue are not collected twice
            ignores += [f"--ignore={app.name}" for app in apps]
        for domain in ("django", "djangojs"):
            runs.append((str(where), [*MAKEMESSAGES, "-d", domain, *ignores][1:]))
    env = {
        **os.environ,
        "DEBUG": "true",
        "DJANGO_SETTINGS_MODULE": "maubinh_site.settings",
        "PYTHONPATH": str(root),
    }
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", _MAKE_ALL, json.dumps(runs)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def _gaps(po: Path) -> list[str]:
    """msgids without a translation, and fuzzy entries (the header excepted)."""
    gaps = []
    for option in ("--untranslated", "--only-fuzzy"):
        out = subprocess.run(
            ["msgattrib", option, "--no-obsolete", "--no-wrap", str(po)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        gaps += [
            line[len("msgid ") :]
            for line in out.splitlines()
            if line.startswith("msgid ") and line != 'msgid ""'
        ]
    return gaps


def test_every_string_has_a_vietnamese_translation(tmp_path: Path) -> None:
    copy = tmp_path / "project"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(*SKIP_DIRS, "__pycache__", "*.sqlite3"),
    )
    dirs = _locale_dirs(copy)
    apps = [d for d in dirs if d != copy]
    assert {d.name for d in apps} >= {"games", "ledger"}
    _makemessages(copy, dirs, apps)
    problems = {}
    for po in sorted(copy.glob("**/locale/vi/LC_MESSAGES/*.po")):
        gaps = _gaps(po)
        if gaps:
            problems[str(po.relative_to(copy))] = gaps
    assert not problems, f"untranslated or fuzzy Vietnamese strings: {problems}"


def test_compiled_catalogues_are_up_to_date() -> None:
    """The committed .mo files hold what the .po files say (run compilemessages)."""
    for po in sorted(ROOT.glob("**/locale/*/LC_MESSAGES/*.po")):
        if any(part in SKIP_DIRS for part in po.parts):
            continue
        mo = po.with_suffix(".mo")
        assert mo.exists(), f"{mo} is missing: run compilemessages"
        fresh = subprocess.run(
            ["msgfmt", "--check-format", "-o", "-", str(po)], capture_output=True, check=True
        ).stdout
        assert fresh == mo.read_bytes(), f"{mo} is stale: run compilemessages"
