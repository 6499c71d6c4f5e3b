"""Which real services the test run can reach, decided once before Django starts.

Outside CI a missing service skips the tests that need it, with a one-line reason;
with CI=true it fails them instead, so a green CI never hides an untested layer.
"""

from __future__ import annotations

import os
import shutil
import socket
from urllib.parse import urlparse

CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

TEST_DATABASE_URL = os.environ.get(
    "TEST_DATABASE_URL", "postgres://maubinh:maubinh@127.0.0.1:5432/maubinh"
)
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
# Debian's Chromium in its headless-shell build (package chromium-headless-shell: the same
# engine and version, without the desktop browser around it), which is what Playwright runs
# headless by default; the full /usr/bin/chromium where the shell is not installed. The
# shell spends half the CPU (measured 7 Dec 2026 on the phone-table tests: 41 s against
# 83 s), and the browser was two thirds of what a browser test costs the machine.
SHELL_CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("CHROMIUM") or (
    SHELL_CHROMIUM if shutil.which(SHELL_CHROMIUM) else "/usr/bin/chromium"
)
# How the browser tests launch it: headless in a container, nothing fetched in the background.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _postgres_reachable(url: str) -> str | None:
    """None when usable, else the reason."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    parsed = urlparse(url)
    try:
        with psycopg.connect(
            host=parsed.hostname or "127.0.0.1",
            port=parsed.port or 5432,
            user=parsed.username,
            password=parsed.password,
            dbname="postgres",
            connect_timeout=3,
        ):
            return None
    except Exception as exc:  # any failure to connect means "not available"
        return f"PostgreSQL at {parsed.hostname}:{parsed.port or 5432} unreachable ({exc})"


def _redis_reachable(url: str) -> str | None:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or 6379), 2
        ) as s:
            s.sendall(b"PING\r\n")
            if not s.recv(16).startswith(b"+PONG"):
                return "Redis did not answer PING"
        return None
    except OSError as exc:
        return f"Redis at {parsed.hostname}:{parsed.port or 6379} unreachable ({exc})"


POSTGRES_MISSING = _postgres_reachable(TEST_DATABASE_URL)
REDIS_MISSING = _redis_reachable(TEST_REDIS_URL)
CHROMIUM_MISSING = None if shutil.which(CHROMIUM) else f"no Chromium at {CHROMIUM}"
