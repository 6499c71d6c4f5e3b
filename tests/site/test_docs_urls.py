"""Every page the docs name exists: each `/path/` in README.md and docs/*.md resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import Resolver404, resolve

ROOT = Path(__file__).resolve().parent.parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FILESYSTEM = ("/usr/", "/proc", "/tmp/", "/etc/", "/work/", "/dev/", "/var/", "/srv/")


def _named_paths() -> list[tuple[str, str]]:
    found = set()
    for doc in DOCS:
        for path in re.findall(r"`(/[^`\s]*)`", doc.read_text()):
            if not path.startswith(FILESYSTEM):
                found.add((doc.name, path))
    return sorted(found)


def _concrete(path: str) -> str:
    """`/history/<id>/?round=<id>` → `/history/1/`: placeholders become an id, no query."""
    return re.sub(r"<[^>]+>", "1", path.split("?")[0])


def test_the_docs_name_pages() -> None:
    assert len(_named_paths()) > 10


@pytest.mark.parametrize(("doc", "path"), _named_paths())
def test_every_url_the_docs_name_resolves(doc: str, path: str) -> None:
    try:
        resolve(_concrete(path))
    except Resolver404:
        pytest.fail(f"{doc} names {path}, which is not a page (see the urls.py files)")
