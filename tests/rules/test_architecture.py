"""games.rules is a pure library: standard library only, nothing from Django and friends."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RULES_DIR = Path(__file__).resolve().parents[2] / "games" / "rules"
FORBIDDEN = {"django", "channels", "celery", "redis", "rest_framework"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_rules_package_has_python_files_to_check() -> None:
    assert len(list(RULES_DIR.rglob("*.py"))) >= 8


def test_rules_import_only_the_standard_library_and_themselves() -> None:
    offenders = []
    for path in sorted(RULES_DIR.rglob("*.py")):
        for name in imported_modules(path):
            top = name.split(".")[0]
            if name.startswith("games.rules") or name == "games":
                continue
            if top in FORBIDDEN or top not in sys.stdlib_module_names:
                offenders.append(f"{path.relative_to(RULES_DIR)}: {name}")
    assert offenders == []


def test_the_checker_would_catch_a_django_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from django.db import models\nimport games.ledger\n", encoding="utf-8")
    assert imported_modules(bad) == {"django.db", "games.ledger"}
