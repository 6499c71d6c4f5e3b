"""The heartbeat of a server process's open table sockets.

Every open table socket has a presence row (``games.services.presence``) that expires
unless renewed. The process that holds the socket renews the rows of all its open sockets
in one UPDATE every third of the timeout, so a socket counts exactly as long as a live
process holds it open: a process killed, crashed or hung stops renewing and its sockets
vanish on their own. A client need not do anything (a quiet client, a third-party one or
a tab the browser throttles stays present); a dead network connection is closed by
daphne's websocket ping (``--ping-timeout``), which removes the row at once.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass

from channels.db import database_sync_to_async

from games import services

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class OpenSocket:
    user_id: int
    table_id: int


class OpenSockets:
    """This process's open table sockets, and the task that renews their rows."""

    def __init__(self) -> None:
        self.open: dict[uuid.UUID, OpenSocket] = {}
        self._task: asyncio.Task[None] | None = None

    def add(self, connection_id: uuid.UUID, user_id: int, table_id: int) -> None:
        self.open[connection_id] = OpenSocket(user_id, table_id)
        if self._task is None or self._task.done() or self._task.get_loop().is_closed():
            self._task = asyncio.get_running_loop().create_task(self._renew_forever())

    def discard(self, connection_id: uuid.UUID) -> None:
        self.open.pop(connection_id, None)

    async def _renew_forever(self) -> None:
        while self.open:
            await asyncio.sleep(services.CONNECTION_TTL.total_seconds() / 3)
            try:
                await self.renew()
            except Exception:
                logger.exception("could not renew %d table sockets", len(self.open))

    async def renew(self) -> None:
        sockets = dict(self.open)
        if sockets:
            await database_sync_to_async(services.renew_connections)(
                {key: (s.user_id, s.table_id) for key, s in sockets.items()}
            )


open_sockets = OpenSockets()
