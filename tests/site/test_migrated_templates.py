"""The migrated templates the suite and the benchmarks copy (tests.support.migrated) hold
every migration, so nothing runs on a schema older than the code's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import migrated
from tests.support.processes import manage, site_env
from tests.support.services import TEST_DATABASE_URL


def _unapplied(database_url: str) -> str:
    """What ``migrate --check`` says of the database: empty when nothing is left to apply."""
    done = manage(site_env(DATABASE_URL=database_url), "migrate", "--check", "--plan")
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.postgres
@pytest.mark.slow
def test_a_database_cloned_from_the_postgres_template_has_every_migration_applied() -> None:
    from benchmarks.scratchdb import database_url, recreate

    name = "maubinh_template_check"
    recreate(TEST_DATABASE_URL, name, migrated=True)
    try:
        assert "No planned migration operations" in _unapplied(
            database_url(TEST_DATABASE_URL, name)
        )
    finally:
        recreate(TEST_DATABASE_URL, name, drop_only=True)


@pytest.mark.slow
def test_a_sqlite_file_copied_from_the_template_has_every_migration_applied(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.sqlite3"
    migrated.copy_sqlite(path)
    assert "No planned migration operations" in _unapplied(f"sqlite:///{path}")


def test_the_templates_name_follows_every_migration_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = migrated.fingerprint()
    app = tmp_path / "someapp" / "migrations"
    app.mkdir(parents=True)
    (app / "0001_initial.py").write_text("operations = []\n")
    monkeypatch.setattr(migrated, "ROOT", tmp_path)
    migrated.fingerprint.cache_clear()
    try:
        changed = migrated.fingerprint()
        (app / "0001_initial.py").write_text("operations = [1]\n")
        migrated.fingerprint.cache_clear()
        assert len({before, changed, migrated.fingerprint()}) == 3
    finally:
        migrated.fingerprint.cache_clear()
