"""The NDJSON streams (``events_stream``, ``table_stream``): docs/api.md, "Streams".

Each is a Django async view (a django-ninja operation, so the OpenAPI document has it)
returning a ``StreamingHttpResponse`` over an async iterator: daphne serves it on its event
loop, and an open stream holds no thread, only a channel of the channel layer and a queue.
Database work (the token's scope, the table's access, the snapshot, the lease's renewal,
the token's validity) runs on the socket's thread pools (``games.consumers``).

- **The table stream** is the table socket read-only: it joins the same groups (the
  table's and the user's private group at that table), sends first the socket's snapshot
  (``games.selectors.table_snapshot``, the one builder) and then the same events as their
  JSON text, in version order (``games.sequencer.InOrder``), with a duplicate board's cards
  withheld as the socket does. It counts as the user's presence at the table, like a socket
  (``games.liveness``): a bot following it is not stood up as away.
- **The event stream** joins the user's own group (``games.events.user_group``): a round
  dealt to them (with their cards), a tournament seating them, an invitation, a challenge
  (to or from them, and its answer); on connect, every one of those still open.

Every stream holds a lease in the limits (``api.limits.acquire_stream``: over the limit
the answer is 429 with ``Retry-After`` before anything is streamed), renewed while it is
open and released when it ends; it ends at once when its token stops working: revoked
(``end_token_streams`` on the token's group, and every ``CHECK_SECONDS`` in any case),
expired, or its account deactivated. A stream that ends on the server's side says why in a
last line, ``{"type": "end", "reason": ...}``; a client that goes away ends it too (Django
cancels the response, and its ``finally`` leaves the groups and releases the lease).
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator
from typing import Annotated, Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.http import HttpRequest, StreamingHttpResponse
from django.utils.translation import gettext as _
from ninja import Path, Router

from accounts.models import User
from api import limits
from api.auth import Grant, grant_still_valid, token_group
from api.errors import SCOPED, ApiError, ndjson, refusals
from api.root import Token, grant_of
from games import consumers, events, selectors, services
from games.consumers import run_command, run_handshake
from games.liveness import open_sockets
from games.models import Table
from games.sequencer import InOrder
from social.selectors import open_challenge_events, open_invitations

logger = logging.getLogger(__name__)

router = Router(tags=["streams"])

NDJSON = "application/x-ndjson"
KEEPALIVE_SECONDS = 5.0
"""An empty line after this long without one (the API promises one at least every 10 s)."""
CHECK_SECONDS = 1.0
"""How often the tokens of this process's open streams are checked (revoked? expired?)."""
MAX_BACKLOG = 2000
"""Lines waiting for a client that does not read: past this the stream ends (``behind``)."""

BIGINT = 2**63 - 1

# Every ``type`` a stream's lines carry (docs/api.md, "Streams", lists each one).
END = "end"
EVENT_STREAM_TYPES = frozenset(
    {
        "round_dealt",
        "tournament_table",
        "invitation",
        "challenge",
        "challenge_accepted",
        "challenge_closed",
        END,
    }
)
TABLE_STREAM_TYPES = frozenset(
    {
        "snapshot",  # first: games.selectors.table_snapshot
        # The table's public events (games/services, games.selectors.payloads)
        "seat_taken",
        "seat_left",
        "presence",
        "countdown",
        "round_started",
        "submitted",
        "player_left",
        "reveal",
        "settled",
        "voided",
        "table_closed",
        "stake",  # a tournament table's stake, with the level
        # Your private events at the table
        "cards",
        "submission",
        END,
    }
)
TABLE_TALK = frozenset({"chat_message", "chat_reaction", "chat_settings"})
"""The table talk goes to the table's group too (chat.services); the stream leaves it out:
only the chat's socket filters it for each reader (blocks, mutes: chat.consumers)."""


class _Watch:
    """This process's open streams by token, and the task that checks their tokens: one
    ``grant_still_valid`` per token (not per stream) every ``CHECK_SECONDS``."""

    def __init__(self) -> None:
        self.streams: dict[str, set[_Stream]] = {}
        self._task: asyncio.Task[None] | None = None

    def add(self, stream: _Stream) -> None:
        self.streams.setdefault(stream.grant.token_id, set()).add(stream)
        if self._task is None or self._task.done() or self._task.get_loop().is_closed():
            self._task = asyncio.get_running_loop().create_task(self._check_forever())

    def discard(self, stream: _Stream) -> None:
        same = self.streams.get(stream.grant.token_id)
        if same is not None:
            same.discard(stream)
            if not same:
                del self.streams[stream.grant.token_id]

    async def _check_forever(self) -> None:
        while self.streams:
            await asyncio.sleep(CHECK_SECONDS)
            try:
                await self.check()
            except Exception:
                # The database away: the streams stay open and are checked again.
                logger.exception("could not check the tokens of %d streams", len(self.streams))

    async def check(self) -> None:
        tokens = list(self.streams)
        if not tokens:
            return
        dead = await run_handshake(_dead_tokens)(tokens)
        for token_id in dead:
            for stream in list(self.streams.get(token_id, ())):
                stream.end("revoked")


def _dead_tokens(token_ids: list[str]) -> list[str]:
    return [token_id for token_id in token_ids if not grant_still_valid(token_id)]


watch = _Watch()


class _Stream(abc.ABC):
    """One open stream: a channel in the layer's groups, a queue of lines for the client."""

    def __init__(self, grant: Grant, lease: limits.StreamLeaseHandle) -> None:
        self.grant = grant
        self.user: User = grant.user
        self.lease = lease
        self.lines: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.layer = get_channel_layer()
        self.channel = ""
        self.groups: list[str] = []
        self.reader: asyncio.Task[None] | None = None
        self.ended = False

    def groups_to_join(self) -> list[str]:
        return [token_group(self.grant.token_id)]

    @abc.abstractmethod
    async def start(self) -> None:
        """Queue the first lines (the channel is in the groups); then events flow."""

    @abc.abstractmethod
    async def handle(self, head: dict[str, Any], message: dict[str, Any]) -> None:
        """One event from the layer (a ``game.event``: ``games.events.message``)."""

    @abc.abstractmethod
    async def stop(self) -> None:
        """What only this kind of stream must undo when it ends (the base leaves the
        groups and releases the lease)."""

    def put(self, line: str | dict[str, Any]) -> None:
        if self.ended:
            return
        text = line if isinstance(line, str) else json.dumps(line)
        if self.lines.qsize() >= MAX_BACKLOG:
            self.end("behind")  # the client does not read: said, never dropped silently
            return
        self.lines.put_nowait(text.encode() + b"\n")

    def end(self, reason: str) -> None:
        """End the stream after the lines already queued, with a last line saying why."""
        if self.ended:
            return
        self.lines.put_nowait(json.dumps({"type": END, "reason": reason}).encode() + b"\n")
        self.ended = True
        self.lines.put_nowait(None)

    async def body(self) -> AsyncIterator[bytes]:
        renew_every = settings.API_STREAM_LEASE_SECONDS / 3
        loop = asyncio.get_running_loop()
        renewed = loop.time()
        try:
            events.serve_from(loop)  # the in-memory layer (DEBUG) is read on this loop
            watch.add(self)
            if self.layer is None:
                self.end("server_error")
            else:
                self.channel = await self.layer.new_channel()
                for group in self.groups_to_join():
                    await self.layer.group_add(group, self.channel)
                    self.groups.append(group)
                await self.start()
                if not self.ended:
                    self.reader = loop.create_task(self._read())
            while True:
                try:
                    line = await asyncio.wait_for(self.lines.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    line = b"\n"  # keep-alive
                if line is None:
                    return
                yield line
                if loop.time() - renewed >= renew_every:
                    renewed = loop.time()
                    await run_handshake(self.lease.renew)()
        except Exception:
            logger.exception("stream of user %s failed", self.user.pk)
            yield json.dumps({"type": "end", "reason": "server_error"}).encode() + b"\n"
        finally:
            await self._close()

    async def _read(self) -> None:
        assert self.layer is not None
        try:
            while not self.ended:
                message = await self.layer.receive(self.channel)
                if message.get("type") != "game.event":
                    continue
                head = message.get("head", {})
                if head.get("type") == "token_revoked":
                    self.end("revoked")
                    return
                await self.handle(head, message)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("stream of user %s: event not delivered", self.user.pk)
            self.end("server_error")

    async def _close(self) -> None:
        # Shielded from a second cancel: a client gone mid-clean-up must not leave the
        # lease held or the channel in its groups.
        self.ended = True
        watch.discard(self)
        if self.reader is not None:
            self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(self._release())

    async def _release(self) -> None:
        try:
            if self.layer is not None:
                for group in self.groups:
                    await self.layer.group_discard(group, self.channel)
            await self.stop()
        finally:
            await run_handshake(self.lease.release)()


class EventStream(_Stream):
    def groups_to_join(self) -> list[str]:
        return [*super().groups_to_join(), events.user_group(self.user.pk)]

    async def start(self) -> None:
        for line in await run_handshake(_open_events)(self.user):
            self.put(line)
        if self.lines.empty():
            self.put("")  # the headers and a first line at once, even when nothing is open

    async def handle(self, head: dict[str, Any], message: dict[str, Any]) -> None:
        self.put(message["text"])

    async def stop(self) -> None:
        return None  # nothing of its own: no presence, no ordering


def _open_events(user: User) -> list[dict[str, Any]]:
    """What is open for this user now: the rounds they are arranging, their tournament
    table, the invitations they have not read, the challenges to or from them still open."""
    return [
        *selectors.open_rounds(user),
        *selectors.open_tournament_seats(user),
        *open_invitations(user),
        *open_challenge_events(user),
    ]


class TableStream(_Stream):
    def __init__(
        self,
        grant: Grant,
        lease: limits.StreamLeaseHandle,
        table_id: int,
        private: bool,
        by_role: bool = False,
    ) -> None:
        super().__init__(grant, lease)
        self.table_id = table_id
        self.private = private
        # Let in to a private table by a staff role only: as the socket, the role is
        # checked again (at most every ROLE_CHECK_SECONDS, before an event is sent), so
        # a staff member suspended or deactivated meanwhile gets nothing more from it.
        self.by_role = by_role
        self.role_checked = time.monotonic()
        self.in_order = InOrder(self._send)
        self.connection_id = uuid.uuid4()
        self.present = False

    def groups_to_join(self) -> list[str]:
        return [
            *super().groups_to_join(),
            events.table_group(self.table_id),
            events.private_group(self.table_id, self.user.pk),
        ]

    async def _send(self, message: str | dict[str, Any]) -> None:
        self.put(message)

    async def start(self) -> None:
        # As the socket: in the groups first, then the presence and the snapshot, so no
        # event between the two is missed (an earlier one is in the snapshot).
        open_sockets.add(self.connection_id, self.user.pk, self.table_id)
        self.present = True
        arrived = await run_command(self._arrive)()
        if arrived is None:
            self.end("forbidden")
            return
        await self.in_order.snapshot(*arrived)

    def _arrive(self) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        table = Table.objects.select_related("host").get(pk=self.table_id)
        if self.private and not selectors.may_enter(table, self.user):
            return None  # let out between the check and the join (games.consumers)
        services.connected(self.user, self.table_id, self.connection_id)
        return selectors.snapshot_and_later(table, self.user)

    async def _still_admitted(self) -> bool:
        """Whether a staff role that let this stream in still holds (games.consumers)."""
        if not self.by_role:
            return True
        now = time.monotonic()
        if now - self.role_checked < consumers.ROLE_CHECK_SECONDS:
            return True
        self.role_checked = now
        try:
            return bool(await run_command(consumers.may_still_enter)(self.table_id, self.user.pk))
        except Exception:
            # The database away: ask again at the next event; the stream never dies of it.
            logger.exception("table %s: stream's staff standing not checked", self.table_id)
            return True

    async def handle(self, head: dict[str, Any], message: dict[str, Any]) -> None:
        if head.get("type") in TABLE_TALK:
            return  # not in the table stream (docs/api.md)
        if not await self._still_admitted():
            self.end("forbidden")  # nothing more is sent
            return
        if head.get("type") == "shut_out" and head.get("user") == self.user.pk:
            self.end("forbidden")  # a revoked invite link or a block (games.consumers)
            return
        # A duplicate board's cards withheld, a showdown's later chi held (games.sequencer).
        await self.in_order.deliver(message, self.user.pk)
        if (
            self.private
            and head.get("type") == "seat_left"
            and head.get("reason") == "removed"
            and head.get("user") == self.user.pk
        ):
            self.end("forbidden")

    async def stop(self) -> None:
        self.in_order.close()
        open_sockets.discard(self.connection_id)
        if self.present:
            try:
                await run_command(services.disconnected)(
                    self.user, self.table_id, self.connection_id
                )
            except Exception:
                logger.exception("table %s: stream's disconnect not recorded", self.table_id)


def _respond(stream: _Stream) -> StreamingHttpResponse:
    response = StreamingHttpResponse(stream.body(), content_type=NDJSON)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy in front passes each line at once
    return response


_STREAMED = 'One JSON object per line (docs/api.md, "Streams"), an empty line at least every 10 s.'


@router.get(
    "/stream/event",
    operation_id="events_stream",
    auth=Token("read", "play"),
    response={200: None},
    openapi_extra=ndjson(_STREAMED, refusals(*SCOPED, "too_many_streams")),
)
async def events_stream(request: HttpRequest) -> StreamingHttpResponse:
    """Your events as NDJSON: ``round_dealt`` (your cards), ``tournament_table``,
    ``invitation``, ``challenge`` (and ``challenge_accepted``, ``challenge_closed``); first
    every one still open. Scope ``read`` or ``play``."""
    grant = grant_of(request)
    lease = await run_handshake(limits.acquire_stream)(grant)
    return _respond(EventStream(grant, lease))


def _table_access(table_id: int, user: User) -> tuple[bool, bool]:
    """(whether the table is private, whether the user is let in only by a staff role);
    ``ApiError`` when the user may not watch it."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ApiError(404, "not_found", _("This table or round does not exist."))
    if not selectors.may_enter(table, user):
        raise ApiError(
            403, "private_table", _("This table is private: you need an invitation from its host.")
        )
    return table.is_private, selectors.enters_as_staff(table, user)


@router.get(
    "/tables/{table_id}/stream",
    operation_id="table_stream",
    auth=Token("read", "play"),
    response={200: None},
    openapi_extra=ndjson(
        _STREAMED,
        refusals(*SCOPED, "malformed", "not_found", "private_table", "too_many_streams"),
    ),
)
async def table_stream(
    request: HttpRequest, table_id: Annotated[int, Path(ge=1, le=BIGINT)]
) -> StreamingHttpResponse:
    """A table as NDJSON: first its ``snapshot`` as the socket sends it, then the same
    versioned events (your own cards only). Scope ``read`` or ``play``."""
    grant = grant_of(request)
    private, by_role = await run_handshake(_table_access)(table_id, grant.user)
    lease = await run_handshake(limits.acquire_stream)(grant)
    return _respond(TableStream(grant, lease, table_id, private, by_role))
