"""A migrated database made once for a set of migrations, and copied for every use.

Django's ``migrate`` costs about 25 s of CPU here on an empty database (most of it Django
re-rendering the models' state after each operation), and a test run needed a dozen: one
test database per pytest-xdist worker, a SQLite file per browser site, a scratch database
per chaos run. Each now copies a template instead: a PostgreSQL database cloned with
``CREATE DATABASE ... TEMPLATE`` (what Django's own parallel test runner does), or a SQLite
file copied. The template is made by the real ``manage.py migrate``, once for each set of
migration files (its name carries their fingerprint), under a lock that the other processes
of the run wait on; a changed migration makes a new one and drops the old.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import shutil
import tempfile
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "maubinh_migrated_"
# Any constant: the advisory lock the processes making a template hold (pg_advisory_lock).
LOCK_KEY = 0x6D6967726174  # "migrat"


@functools.cache
def fingerprint() -> str:
    """What the migrated schema depends on: the project's migration files, and the version
    of every installed package (a third-party app's migrations come with its version)."""
    from importlib import metadata

    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(f"{path.relative_to(ROOT)}\0".encode())
        digest.update(path.read_bytes())
    versions = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    digest.update("\n".join(versions).encode())
    return digest.hexdigest()[:16]


def _migrate(database_url: str) -> None:
    """The real ``manage.py migrate`` into ``database_url``, in a process of its own."""
    from tests.support.processes import manage, site_env

    done = manage(site_env(DATABASE_URL=database_url), "migrate", "--noinput", "-v0")
    if done.returncode != 0:
        raise RuntimeError(f"migrate for a template failed:\n{done.stderr[-3000:]}")


def server_connection(server_url: str):  # type: ignore[no-untyped-def]
    """An autocommit connection to the maintenance database of ``server_url``'s server (to
    create and drop databases)."""
    import psycopg

    parsed = urlparse(server_url)
    return psycopg.connect(
        host=parsed.hostname,
        port=parsed.port or 5432,
        user=parsed.username,
        password=parsed.password,
        dbname="postgres",
        autocommit=True,
    )


def postgres_template(server_url: str) -> str:
    """The name of the migrated template database on the server of ``server_url``, made
    now if it does not exist yet (the other processes wait for it)."""
    name = PREFIX + fingerprint()
    with server_connection(server_url) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                return name
            stale = conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s", (PREFIX + "%",)
            ).fetchall()
            for (old,) in stale:  # an older set of migrations, or a build that died
                conn.execute(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)')
            building = name + "_building"
            conn.execute(f'CREATE DATABASE "{building}"')
            _migrate(urlparse(server_url)._replace(path=f"/{building}").geturl())
            conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
            return name
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))


def clone_postgres(server_url: str, name: str) -> None:
    """Database ``name`` anew, migrated: dropped (closing its sessions) and cloned from the
    template."""
    template = postgres_template(server_url)
    with server_connection(server_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')


def sqlite_template() -> Path:
    """The migrated template SQLite file, made now if it does not exist yet."""
    path = Path(tempfile.gettempdir()) / f"{PREFIX}{fingerprint()}.sqlite3"
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            building = path.with_suffix(".building")
            building.unlink(missing_ok=True)
            _migrate(f"sqlite:///{building}")
            os.replace(building, path)
    return path


def copy_sqlite(path: Path) -> None:
    """A migrated SQLite database at ``path``, copied from the template."""
    shutil.copyfile(sqlite_template(), path)
