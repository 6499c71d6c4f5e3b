"""The arena socket: the tournament socket (the live state, whole, with its version) that
also marks its entrant present while it is open (docs/tournaments.md, Arena: a waiting
player who is not connected is not seated at a board).

Each open socket is an ``ArenaSocket`` row, renewed by the socket's own process every
third of the presence timeout: a process that dies stops renewing, and the row stops
counting on its own (like the table sockets, ``games.liveness``).
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid

from channels.db import database_sync_to_async

from tournaments.arena import selectors
from tournaments.arena import services as arena
from tournaments.consumers import TournamentConsumer
from tournaments.models import Kind


class ArenaConsumer(TournamentConsumer):
    kind = Kind.ARENA  # a sit-and-go has no queue: its socket is the tournament socket
    socket_id: uuid.UUID | None = None
    _renewal: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        await super().connect()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated or not self.found:
            return
        socket_id = uuid.uuid4()
        if await database_sync_to_async(arena.socket_opened)(user, self.tournament_id, socket_id):
            self.socket_id = socket_id
            self._renewal = asyncio.get_running_loop().create_task(self._renew_forever())

    async def _renew_forever(self) -> None:
        period = selectors.away_after().total_seconds() / 3
        while True:
            await asyncio.sleep(period)
            if self.socket_id is not None:
                with contextlib.suppress(Exception):  # the next beat tries again
                    await database_sync_to_async(arena.sockets_renewed)([self.socket_id])

    async def disconnect(self, code: int) -> None:
        if self._renewal is not None:
            self._renewal.cancel()
        if self.socket_id is not None:
            await database_sync_to_async(arena.socket_closed)(self.socket_id, self.tournament_id)
        await super().disconnect(code)
