"""Django's PostgreSQL backend (psycopg 3), whose health check asks the socket, not the server.

A connection kept between requests, tasks and websocket commands (``CONN_MAX_AGE``) is
checked before each of them reuses it (``CONN_HEALTH_CHECKS``): Django's check sends
``SELECT 1`` and waits for the answer, a round trip for every command a table socket sends,
every step of a round and every Celery task, on top of the queries themselves (and not
counted among them: it bypasses the cursor wrappers). A kept connection is idle: the server
has nothing to say on it until it is asked. When the server ends it (a restart,
``pg_terminate_backend``, a failover), its last message (FATAL) and the close are already on
the socket, so one poll of the socket, with no wait, finds them. Anything waiting to be read
on an idle connection makes it unusable: it is closed and the next use opens a new one.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.pgconn.status != pq.ConnStatus.OK:
            return False
        try:
            poller = select.poll()
            poller.register(connection.fileno(), select.POLLIN | select.POLLPRI)
            # Readable, hung up or in error: the server spoke or closed on an idle connection.
            return not poller.poll(0)
        except (OSError, ValueError):
            return False
