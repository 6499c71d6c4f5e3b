"""Typed readers for environment variables: a bad value fails at start-up, naming the variable."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any, TypeVar
from urllib.parse import urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

N = TypeVar("N", int, float)

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}: expected true/false, got {raw!r}")


def _env_number(
    name: str, default: N, parse: Callable[[str], N], kind: str, minimum: N, maximum: N
) -> N:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = parse(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}: expected {kind}, got {raw!r}") from None
    if not minimum <= value <= maximum:  # a NaN is in no range
        raise ImproperlyConfigured(f"{name}: must be between {minimum} and {maximum}, got {value}")
    return value


def env_int(name: str, default: int, *, minimum: int, maximum: int) -> int:
    return _env_number(name, default, int, "a whole number", minimum, maximum)


def env_float(name: str, default: float, *, minimum: float, maximum: float) -> float:
    return _env_number(name, default, float, "a number", minimum, maximum)


def env_float_or_auto(name: str, *, minimum: float, maximum: float) -> float | None:
    """A number, or None where the variable is unset (or ``auto``): the caller works the
    value out itself (the deal pacing's rate: games.services.countdown.deal_rate)."""
    raw = os.environ.get(name)
    if raw is None or raw.strip().lower() == "auto":
        return None
    return env_float(name, 0.0, minimum=minimum, maximum=maximum)


def env_decimal_percent(name: str, default: str) -> str:
    """A percentage 0–100 as a decimal string (kept a string so money code can use Decimal)."""
    raw = os.environ.get(name, default)
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}: expected a percentage, got {raw!r}") from None
    if not 0 <= value <= 100:
        raise ImproperlyConfigured(f"{name}: must be between 0 and 100, got {raw!r}")
    return raw


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_from_url(
    name: str,
    url: str,
    *,
    timeouts_ms: Mapping[str, int] | None = None,
    prepare_threshold: int | None = None,
) -> dict[str, Any]:
    """Parse a database URL, accepting only the engines this project supports.

    ``timeouts_ms`` are PostgreSQL session settings (``lock_timeout``,
    ``statement_timeout``, ``idle_in_transaction_session_timeout``; 0 = off) given to every
    connection at connect time, at no cost per query. SQLite has no such settings.

    ``prepare_threshold``: PostgreSQL binds a statement's values on the server, and a
    statement a connection has run that many times is prepared there (psycopg's
    ``prepare_threshold``): PostgreSQL parses and plans it once per connection, and the client
    no longer quotes every value into the SQL text (docs/deploy.md, "Prepared statements").
    None leaves Django's default: values quoted into the text on the client, nothing prepared.
    """
    scheme = urlparse(url).scheme
    if scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
        raise ImproperlyConfigured(
            f"{name}: unsupported database URL {_redact(url)!r}; "
            "use postgres://user:password@host:port/name or sqlite:///path"
        )
    try:
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=60))
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}: cannot parse {_redact(url)!r}: {exc}") from None
    if scheme != "sqlite" and not config.get("NAME"):
        raise ImproperlyConfigured(f"{name}: the URL names no database: {_redact(url)!r}")
    if scheme == "sqlite":
        # Several threads (the embedded worker, the ASGI loop) write; wait instead of failing.
        config.setdefault("OPTIONS", {})["timeout"] = 20
        # Take the write lock at BEGIN: a transaction that reads, then writes, cannot then
        # fail with "database is locked" halfway (SQLite has no row locks).
        config["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
        config["CONN_MAX_AGE"] = 0
    else:
        # A connection kept between requests or tasks (CONN_MAX_AGE) may have been closed by
        # the server meanwhile (a restart, pg_terminate_backend): check it before reuse, by
        # a poll of its socket rather than a SELECT 1 (core.postgresql.base).
        config["ENGINE"] = "core.postgresql"
        config["CONN_HEALTH_CHECKS"] = True
        if prepare_threshold is not None:
            options = config.setdefault("OPTIONS", {})
            options["server_side_binding"] = True
            options["prepare_threshold"] = prepare_threshold
        session = " ".join(f"-c {key}={ms}" for key, ms in (timeouts_ms or {}).items())
        if session:
            config.setdefault("OPTIONS", {})["options"] = session
    return config


def redis_url(name: str, url: str) -> str:
    if urlparse(url).scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(f"{name}: expected a redis:// URL, got {_redact(url)!r}")
    return url


def _redact(url: str) -> str:
    parsed = urlparse(url)
    if parsed.password:
        return url.replace(parsed.password, "***")
    return url
