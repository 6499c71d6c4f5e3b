"""Every app connection to PostgreSQL carries the limits that keep one stuck process from
stalling the others (docs/deploy.md); the embedded SQLite default runs without them."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from core.env import database_from_url


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "setting"),
    [
        ("lock_timeout", "DB_LOCK_TIMEOUT_MS"),
        ("idle_in_transaction_session_timeout", "DB_IDLE_IN_TRANSACTION_TIMEOUT_MS"),
        ("statement_timeout", "DB_STATEMENT_TIMEOUT_MS"),
    ],
)
def test_an_app_connection_carries_the_configured_session_limit(name, setting):
    with connection.cursor() as cursor:
        cursor.execute("SELECT setting FROM pg_settings WHERE name = %s", [name])
        (value,) = cursor.fetchone()
    assert int(value) == getattr(settings, setting) > 0


def test_a_postgres_connection_is_checked_before_it_is_reused():
    config = database_from_url("DATABASE_URL", "postgres://u:p@db:5432/maubinh")
    assert config["CONN_HEALTH_CHECKS"] is True


def test_the_embedded_sqlite_database_runs_without_session_limits(tmp_path):
    config = database_from_url(
        "DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}", timeouts_ms={"lock_timeout": 5}
    )
    assert "options" not in config["OPTIONS"]
