"""The Content-Security-Policy header, and templates that satisfy it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.support.processes import ROOT

INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+=\"|javascript:", re.IGNORECASE)


@pytest.mark.django_db
def test_every_page_sends_the_policy(client) -> None:  # type: ignore[no-untyped-def]
    policy = client.get(reverse("accounts:login"))["Content-Security-Policy"]
    for directive in (
        "default-src 'self'",
        "script-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
    ):
        assert directive in policy


def test_no_template_has_an_inline_script_or_event_handler() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in ROOT.glob("**/templates/**/*.html")
        if ".venv" not in path.parts
        for match in INLINE.finditer(path.read_text())
    ]
    assert offenders == []
