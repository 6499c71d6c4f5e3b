"""A throw-away PostgreSQL database for a benchmark run."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlparse


def database_url(server_url: str, name: str) -> str:
    """``server_url`` with its database name replaced by ``name``."""
    return urlparse(server_url)._replace(path=f"/{name}").geturl()


def recreate(
    server_url: str, name: str, *, drop_only: bool = False, migrated: bool = False
) -> None:
    """Drop database ``name`` (closing its sessions) and, unless ``drop_only``, create it anew:
    empty, or with ``migrated`` a copy of the migrated template (tests.support.migrated: the
    run's own ``migrate`` then finds nothing to do, in a second instead of 25 s of CPU)."""
    from tests.support.migrated import clone_postgres, server_connection

    if migrated:
        clone_postgres(server_url, name)
        return
    with server_connection(server_url) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if not drop_only:
            conn.execute(f"CREATE DATABASE {name}")


def add_server_argument(parser: Any, name: str) -> None:
    """The ``--server`` option: the PostgreSQL server whose database ``name`` is used."""
    parser.add_argument(
        "--server",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://maubinh:maubinh@127.0.0.1:5432/"),
        help=f"PostgreSQL server URL (the database name is replaced by {name})",
    )
