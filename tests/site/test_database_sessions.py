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


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_statement_an_app_connection_runs_again_and_again_is_prepared_on_the_server():
    from accounts.models import User

    assert settings.DB_PREPARE_THRESHOLD is not None
    for n in range(settings.DB_PREPARE_THRESHOLD + 1):
        User.objects.filter(username=f"nobody-{n}").exists()  # one statement, other values
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement FROM pg_prepared_statements WHERE statement LIKE %s",
            ["%accounts_user%username%"],
        )
        prepared = [row[0] for row in cursor.fetchall()]
    # Prepared once, with its value as a parameter ($1), not quoted into the text.
    assert len(prepared) == 1
    assert "$1" in prepared[0] and "nobody" not in prepared[0]


def test_prepared_statements_can_be_turned_off_for_a_pooler_that_cannot_keep_them():
    url = "postgres://u:p@db:5432/maubinh"
    on = database_from_url("DATABASE_URL", url, prepare_threshold=5)
    assert on["OPTIONS"]["server_side_binding"] is True
    assert on["OPTIONS"]["prepare_threshold"] == 5
    off = database_from_url("DATABASE_URL", url, prepare_threshold=None)
    assert "server_side_binding" not in off.get("OPTIONS", {})
    assert "prepare_threshold" not in off.get("OPTIONS", {})
