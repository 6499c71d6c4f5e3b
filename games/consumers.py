"""Websocket consumers: the live lobby and a table.

A consumer only parses, rate-limits and dispatches: every change is a service call and
every reply is either an ``ok``, an ``error`` with a code and a message in the user's
language, or a snapshot. A malformed or out-of-turn message never changes state.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
import uuid
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync, database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.db import InterfaceError, OperationalError, connections
from django.utils import translation
from django.utils.translation import gettext as _

from games import events, querycount, selectors, services
from games.errors import GameError
from games.liveness import open_sockets
from games.models import Table
from games.selectors.tables import find_table_with_host, seats_with_users, table_with_host
from games.sequencer import InOrder
from games.socket_input import TokenBucket, parse_message
from games.socket_session import (
    SESSION_CHECK_SECONDS,
    SessionEnded,
    digest,
    login_user,
    still_logged_in,
)

logger = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_FLOOD = 4429

# How often a socket let in by a staff role checks that role again (accounts.roles). Its
# login session is told when it ends, and checked again at most every
# SESSION_CHECK_SECONDS (games.socket_session).
ROLE_CHECK_SECONDS = 2.0

# Table commands run on a pool of threads, each with its own database connection, so
# tables do not queue behind one another in the single thread Channels uses by default.
# Commands of one table still serialize on the table's row lock (games.services).
_COMMAND_THREADS = ThreadPoolExecutor(
    max_workers=settings.TABLE_COMMAND_THREADS, thread_name_prefix="table-command"
)
# A new socket's admission (who its login session belongs to, whether the table exists)
# runs on threads of its own: a few short reads that never wait for a lock, never queued
# behind commands waiting for their table's lock nor on Channels' one shared thread.
_HANDSHAKE_THREADS = ThreadPoolExecutor(
    max_workers=settings.HANDSHAKE_THREADS, thread_name_prefix="handshake"
)


# Sockets of one process between their accept and their snapshot, at most. A storm (every
# player of a killed process reconnecting at once) otherwise moves through the arrival's
# steps (the login read, the groups joined, the snapshot) as one crowd: each step queued
# behind every socket's step before it, so that nobody had a snapshot until nearly
# everybody had, seconds after the first could have. Admitted a few at a time, each
# arrival runs through, and the first are back at once.
ARRIVALS_AT_ONCE = 2 * settings.HANDSHAKE_THREADS
_Kept = TypeVar("_Kept")
_arriving: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _of_this_loop(
    registry: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Kept], make: Callable[[], _Kept]
) -> _Kept:
    """The running loop's own ``make()``, kept while the loop lives (tests run several)."""
    loop = asyncio.get_running_loop()
    kept = registry.get(loop)
    if kept is None:
        kept = registry[loop] = make()
    return kept


def arrival_slots() -> asyncio.Semaphore:
    """The running loop's admission for arriving sockets."""
    return _of_this_loop(_arriving, lambda: asyncio.Semaphore(ARRIVALS_AT_ONCE))


class TableTurns:
    """One table's commands in this process, one at a time, waiting in the event loop.

    Every table command takes the table's row lock first (games.services.common.lock_table),
    so a table's commands run one at a time anyway; one that waited for the lock on a
    command thread held the thread meanwhile. At a table's sit-down (four players at once)
    the threads filled with commands waiting for the lock of their own table, and other
    tables' submissions waited for a thread (0.4-0.8 s in a 200-table warm-up). Now the
    commands of a table queue here, first come first served, and take a thread when the
    command before them is done: the threads run what can run."""

    def __init__(self) -> None:
        self._turns: dict[int, tuple[asyncio.Lock, int]] = {}  # table -> (its turn, waiting)

    @contextlib.asynccontextmanager
    async def turn(self, table_id: int) -> AsyncIterator[None]:
        lock, waiting = self._turns.get(table_id, (None, 0))
        lock = lock or asyncio.Lock()
        self._turns[table_id] = (lock, waiting + 1)
        try:
            async with lock:
                yield
        finally:
            lock, waiting = self._turns[table_id]
            if waiting == 1:
                del self._turns[table_id]  # nobody else in line: nothing kept
            else:
                self._turns[table_id] = (lock, waiting - 1)

    def __len__(self) -> int:
        return len(self._turns)


_turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, TableTurns] = (
    weakref.WeakKeyDictionary()
)


def table_turns() -> TableTurns:
    """The running loop's turns."""
    return _of_this_loop(_turns, TableTurns)


def run_command(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=_COMMAND_THREADS)  # type: ignore[no-any-return]


def run_handshake(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=_HANDSHAKE_THREADS)  # type: ignore[no-any-return]


# A read (a snapshot, a socket's arrival, the chat's state) that met a connection the
# server ended (a restart, a terminated backend) runs again on a new one. A read changes
# nothing, or only what running it again sets the same (a presence row).
READ_ATTEMPTS = 4
READ_BACKOFF_SECONDS = 0.25


def _closing_a_lost_connection(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func``, closing this thread's connection when the server ended it, so the next
    attempt opens a new one (not left to close_old_connections, which tests switch off)."""

    @functools.wraps(func)
    def attempt(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (OperationalError, InterfaceError):
            for connection in connections.all(initialized_only=True):
                connection.close_if_unusable_or_obsolete()
            raise

    return attempt


def _connect_first() -> None:
    """Open this thread's database connection before a command runs, and again if the
    server ends it while it opens (a restart, a terminated backend): nothing of the
    command has run yet, so trying again is safe for every command, writes included."""
    connection = connections["default"]
    for attempt in range(1, READ_ATTEMPTS + 1):
        try:
            connection.ensure_connection()
            return
        except (OperationalError, InterfaceError):
            # Django keeps a connection whose set-up failed as if it were open: drop it.
            connection.close()
            if attempt == READ_ATTEMPTS:
                raise
            logger.warning("database connection lost while opening it, again")
            time.sleep(READ_BACKOFF_SECONDS * attempt)


def run_read(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """``run_command`` for reads: retried on a lost database connection, a little later
    each time, so a page never sees a server_error for a connection the server dropped."""
    command = run_command(_closing_a_lost_connection(func))

    async def read(*args: Any, **kwargs: Any) -> Any:
        for attempt in range(1, READ_ATTEMPTS):
            try:
                return await command(*args, **kwargs)
            except (OperationalError, InterfaceError):
                logger.warning("read %s: database connection lost, again", func.__name__)
                await asyncio.sleep(READ_BACKOFF_SECONDS * attempt)
        return await command(*args, **kwargs)

    return read


def login_stack(inner: Any) -> Any:
    """Cookies and the login session in the scope; the consumer finds the user (Channels'
    AuthMiddlewareStack would, before the handshake is answered, on its shared thread)."""
    return CookieMiddleware(SessionMiddleware(inner))


def _table_access(table_id: int, user: Any) -> tuple[int | None, bool, bool]:
    """(None when the user may watch the table, else the close code that says why not;
    whether the table is private; whether they are let in only by their staff role)."""
    table = find_table_with_host(table_id)  # compiled (a storm's every socket reads it)
    if table is None:
        return CLOSE_NOT_FOUND, False, False
    if not selectors.may_enter(table, user):
        return CLOSE_FORBIDDEN, table.is_private, False
    return None, table.is_private, selectors.enters_as_staff(table, user)


def may_still_enter(table_id: int, user_id: int) -> bool:
    """The user as they are now (suspended? deactivated?) may still watch the table."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(pk=user_id).first()
    table = Table.objects.filter(pk=table_id).first()
    return user is not None and table is not None and selectors.may_enter(table, user)


class _Consumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    groups_joined: list[str]

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels' own dispatch first hops to its one shared sync thread to close stale
        # database connections, for every message, broadcasts included: under load every
        # consumer of the process queues behind that thread. These consumers never use
        # that thread's connection directly; every database call goes through
        # database_sync_to_async or run_command, which close stale connections themselves.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        # The handshake is answered at once, before any database work: daphne drops one
        # not answered within 5 s, and a burst of sockets (400 players reconnecting after
        # a restart) whose handshakes waited for the database saw half of them fail. The
        # login is checked right after, before anything is joined or sent; a socket not
        # logged in is closed with 4401, which the page understands (a refused handshake
        # it would retry for ever).
        await self.accept()
        async with arrival_slots():
            await self._arrival(message)

    async def _arrival(self, message: dict[str, Any]) -> None:
        """Everything from the accept to the socket's first message (a table's snapshot)."""
        if "user" not in self.scope:  # tests may put one there
            self.scope["user"] = await run_handshake(self._admit)(self.scope["session"])
        # Join the user's login group first: what ends this login is told there
        # (session_ended, session_check: games.socket_session).
        session = self.scope.get("session")
        self.session_key = getattr(session, "session_key", None) or ""
        self.session_user = getattr(self.scope.get("user"), "pk", None)
        self.session_digest = digest(self.session_key) if self.session_key else ""
        # Checked (the login read at the handshake) as if up to half the interval ago: the
        # sockets of a storm (a restart's 800 at once) do not all check together again.
        self.session_checked = time.monotonic() - random.uniform(0, SESSION_CHECK_SECONDS / 2)
        self.session_due = False  # the next command checks the session before it runs
        group = self._login_group()
        if group is not None:
            await self.channel_layer.group_add(group, self.channel_name)
        await super().websocket_connect(message)

    def _logged_in(self) -> bool:
        return self._login_group() is not None

    def _login_group(self) -> str | None:
        """The group what ends this socket's login is told in (None: not logged in)."""
        if not getattr(self, "session_key", "") or self.session_user is None:
            return None
        return events.login_group(self.session_user)

    def _admit(self, session: Any) -> Any:
        """Who the socket's login session belongs to, read on a handshake thread. A consumer
        with more to check before it lets a socket in reads that here too: one hop."""
        return login_user(session)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        group = self._login_group()
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)
        await super().websocket_disconnect(message)

    async def session_ended(self, event: dict[str, Any]) -> None:
        """A logout (of this session, or the event names another: this one stays), or the
        user deactivated or deleted (no session named: every socket of theirs closes)."""
        if event.get("session") in (None, self.session_digest):
            await self.close(code=CLOSE_UNAUTHENTICATED)

    async def session_check(self, event: dict[str, Any]) -> None:
        """The user's password changed: this socket's session may no longer log them in."""
        if not self._logged_in():
            return
        self.session_checked = time.monotonic()
        try:
            alive = await run_handshake(still_logged_in)(self.session_key, self.session_user)
        except Exception:
            # The database away: the socket checks again at its next message.
            logger.exception("a socket's login session not checked")
            self.session_checked = 0.0
            return
        if not alive:
            await self.close(code=CLOSE_UNAUTHENTICATED)

    def _session_check_due(self) -> bool:
        """Whether the login session is to be checked now (the net for what no signal
        tells: at most every SESSION_CHECK_SECONDS of activity)."""
        if not self._logged_in():
            return False
        now = time.monotonic()
        if now - self.session_checked < SESSION_CHECK_SECONDS:
            return False
        self.session_checked = now
        return True

    async def _session_alive(self) -> bool:
        """False once the socket's login session has ended (checked every few seconds)."""
        if not self._session_check_due():
            return True
        return bool(await run_command(still_logged_in)(self.session_key, self.session_user))

    def _runs_command(self, content: dict[str, Any]) -> bool:
        """Whether this message runs a command on a database thread, which then checks the
        login session first, in the same hop (``session_due``), not one of its own."""
        return False

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.allow():
            self.refused += 1
            if self.refused > 40:
                await self.close(code=CLOSE_FLOOD)
                return
            await self.error("rate_limited", _("Too many messages; slow down."))
            return
        content = parse_message(text_data, bytes_data)
        if isinstance(content, str):
            await self.error("malformed", content)
            return
        if self._runs_command(content):
            self.session_due = self._session_check_due()  # checked by the command's thread
        elif not await self._session_alive():
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not await self._still_admitted():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.receive_json(content)

    async def _still_admitted(self) -> bool:
        """Whatever let this socket in still holds (a table socket checks a staff role)."""
        return True

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        # An event can reach a socket the browser has just closed. daphne raises
        # autobahn's Disconnected there (the ASGI spec says an OSError); let either end
        # the consumer and its disconnect handler would never run, leaving the player's
        # seat counted online. Drop the message: the disconnect follows on its own.
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except (Disconnected, OSError):
            logger.debug("dropped a message for a closed socket")

    async def send_json(self, content: Any, close: bool = False) -> None:
        await self.send(text_data=await self.encode_json(content), close=close)  # as above

    async def deliver(self, message: str | dict[str, Any]) -> None:
        """Send an event's JSON text as it is (games.events encoded it), or a dict as JSON."""
        if isinstance(message, str):
            await self.send(text_data=message)
        else:
            await self.send_json(message)

    async def error(self, code: str, message: str, ref: Any = None) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, "ref": ref})

    async def server_error(self, ref: Any = None) -> None:
        """A failure of ours (a bug, the database away): the socket stays open."""
        await self.error("server_error", _("Something went wrong; nothing was changed."), ref)

    async def game_event(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    def _language(self) -> str:
        user = self.scope.get("user")
        return getattr(user, "preferred_language", None) or "vi"

    def _setup(self) -> None:
        events.serve_from(asyncio.get_running_loop())
        self.bucket = TokenBucket()
        self.refused = 0
        self.groups_joined = []


class NoSuchSocket(AsyncWebsocketConsumer):  # type: ignore[misc]
    """A websocket path that no route takes (an unknown path, an id beyond a bigint, which
    ``<id:...>`` does not match): answered, then closed with 4404, like a table that does
    not exist. Without it the router raises, and daphne logs an exception for a stranger's
    typo."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND)


class LobbyConsumer(_Consumer):
    async def connect(self) -> None:
        self._setup()
        await self.join(events.LOBBY)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.page = (query.get("page") or ["1"])[0]
        await self.send_lobby()

    async def _lobby(self) -> dict[str, Any]:
        # One page (LOBBY_PAGE_SIZE tables), whatever the number of tables.
        rows, page = await database_sync_to_async(selectors.lobby_page)(self.page)
        return {"type": "lobby", "tables": rows, **page}

    async def send_lobby(self, ref: Any = None) -> None:
        try:
            lobby = await self._lobby()
        except Exception:
            logger.exception("lobby: table list failed")  # the socket stays open
            with translation.override(self._language()):
                await self.server_error(ref)
            return
        await self.send_json({**lobby, "ref": ref})

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        if content["type"] == "snapshot":
            if "page" in content:
                self.page = content["page"]
            await self.send_lobby(content.get("ref"))
            return
        with translation.override(self._language()):
            await self.error("unknown_type", _("Unknown message type."), content.get("ref"))


class TableConsumer(_Consumer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.in_order = InOrder(self.deliver)  # this socket's events, in version order
        self.user: Any = None  # the scope's, on connect
        self.private = False  # a private table's socket is closed if its host removes it
        # Let in to a private table by a staff role only: the role is checked again every
        # ROLE_CHECK_SECONDS, so a suspended or deactivated staff member stops watching.
        self.by_role = False
        self.role_checked = time.monotonic()
        self.access_lost = False
        # This socket's presence row (games.services.presence), renewed while it is open.
        self.connection_id = uuid.uuid4()
        # The table (with its host) and its seats (with their users) the last snapshot read.
        self.read_with_snapshot: tuple[Table, list[Any]] | None = None
        # The table's access check, read with the login (``_admit``).
        self.access: tuple[int | None, bool, bool] | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            # However the consumer ended (a close, a crash, cancelled by daphne), its
            # socket is no longer renewed: its row expires if disconnect() did not run.
            open_sockets.discard(self.connection_id)

    async def connect(self) -> None:
        self._setup()
        self.user = self.scope.get("user")
        self.present = False
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        admitted, self.access = self.access, None
        if admitted is None:  # a user the scope came with (tests): not read with a login
            admitted = await run_handshake(_table_access)(self.table_id, self.user)
        access, self.private, self.by_role = admitted
        if access is not None:
            # A private table is watched only by those its invite let in (docs/social.md).
            await self.close(code=access)
            return
        # Recording the socket and its snapshot run like a command (messages from this
        # socket wait until then: Channels handles one at a time).
        await self.join(events.table_group(self.table_id))
        await self.join(events.private_group(self.table_id, self.user.pk))
        self.present = True
        open_sockets.add(self.connection_id, self.user.pk, self.table_id)
        with translation.override(self._language()):
            try:
                snapshot = await run_read(self._arrive)()
            except Exception:
                # The socket stays: its next renewal registers it, the page asks for a snapshot.
                logger.exception("table %s: connect failed", self.table_id)
                await self.server_error()
                return
            if snapshot is None:
                self.access_lost = True
                await self.close(code=CLOSE_FORBIDDEN)
                return
            snapshot, later = snapshot
            snapshot["ref"] = None
            await self.in_order.snapshot(snapshot, later)

    def _admit(self, session: Any) -> Any:
        """The login, and for a logged-in user the table's access check, in one hop."""
        user = super()._admit(session)
        if user.is_authenticated:
            table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
            self.access = _table_access(table_id, user)
        return user

    def _arrive(self) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """Record this socket's presence and take the snapshot it starts from; None when a
        private table no longer lets the user in."""
        with querycount.step("connect"):
            if self.private and not may_still_enter(self.table_id, self.user.pk):
                # Checked again now that the socket is in the table's groups: a link revoked
                # (or a block made) after the handshake's check and before the join sent its
                # shut_out where this socket was not yet listening.
                return None
            services.connected(self.user, self.table_id, self.connection_id)
            return self._snapshot()

    async def disconnect(self, code: int) -> None:
        self.in_order.close()
        open_sockets.discard(self.connection_id)
        await super().disconnect(code)
        if getattr(self, "present", False):
            try:
                await run_command(services.disconnected)(
                    self.user, self.table_id, self.connection_id
                )
            except Exception:
                # The row stops being renewed and expires (games.services.presence).
                logger.exception("table %s: disconnect not recorded", self.table_id)

    async def _still_admitted(self) -> bool:
        """A staff role that let this socket in to a private table counts only while its
        holder is in good standing (accounts.roles): checked every few seconds, at the
        socket's next message or event (the page pings every 15 s)."""
        if self.access_lost or not self.by_role:
            return not self.access_lost
        now = time.monotonic()
        if now - self.role_checked < ROLE_CHECK_SECONDS:
            return True
        self.role_checked = now
        try:
            allowed = await run_command(may_still_enter)(self.table_id, self.user.pk)
        except Exception:
            # The database away: ask again at the next check; the socket never dies of it.
            logger.exception("table %s: staff standing not checked", self.table_id)
            return True
        if not allowed:
            self.access_lost = True  # the socket closes; events still queued go nowhere
        return not self.access_lost

    async def game_event(self, event: dict[str, Any]) -> None:
        if self.access_lost:
            return
        if not await self._still_admitted():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        head = event["head"]
        if head.get("type") == "shut_out" and head.get("user") == self.user.pk:
            # A revoked link or a block: this user may no longer be at this private table
            # (games.services.common.shut_out_barred). Nothing more is sent or acted on.
            self.access_lost = True
            await self.close(code=CLOSE_FORBIDDEN)
            return
        # A duplicate board's cards only to its audience (docs/duplicate.md); a showdown's
        # later chi held until their time (docs/protocol.md, "Reveals").
        await self.in_order.deliver(event, getattr(self.user, "pk", None))
        if (
            self.private
            and head.get("type") == "seat_left"
            and head.get("reason") == "removed"
            and head.get("user") == self.user.pk
        ):
            # The host removed this player from a private table: they no longer watch it.
            self.access_lost = True
            await self.close(code=CLOSE_FORBIDDEN)

    async def send_snapshot(self, ref: Any = None) -> None:
        snapshot, later = await run_read(self._snapshot)()
        snapshot["ref"] = ref
        await self.in_order.snapshot(snapshot, later)

    def _snapshot(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        table = table_with_host(self.table_id)
        seated = seats_with_users(table)
        # Kept for what else this thread call reads with the snapshot (the chat's state,
        # chat.consumers): the same rows, not read again.
        self.read_with_snapshot = (table, seated)
        return selectors.snapshot_and_later(table, self.user, seated)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        # Whatever fails (the database in a snapshot too), the socket stays open.
        try:
            await self._receive(content)
        except Exception:
            logger.exception("table %s: %s failed", self.table_id, content["type"])
            with translation.override(self._language()):
                await self.server_error(content.get("ref"))

    async def _receive(self, content: dict[str, Any]) -> None:
        kind, ref = content["type"], content.get("ref")
        handler = self.HANDLERS.get(kind)
        with translation.override(self._language()):
            if kind == "snapshot":
                await self.send_snapshot(ref)
                return
            if handler is None:
                await self.error("unknown_type", _("Unknown message type."), ref)
                return
            try:
                reply = await self._timed(kind, handler, content)
            except SessionEnded:
                await self.close(code=CLOSE_UNAUTHENTICATED)
                return
            except GameError as exc:
                await self.error(exc.code, exc.message, ref)
                if exc.code == "stale_version":
                    await self.send_snapshot(ref)
                return
            except (KeyError, TypeError, ValueError):
                await self.error(
                    "malformed", _("This message is missing a field or has a wrong value."), ref
                )
                return
            except Exception:
                logger.exception("table %s: %s failed", self.table_id, kind)
                await self.server_error(ref)
                return
            await self.send_json({"type": "ok", "for": kind, "ref": ref, **(reply or {})})

    def _runs_command(self, content: dict[str, Any]) -> bool:
        return content.get("type") in self.HANDLERS  # each runs in _timed

    async def _timed(self, kind: str, handler: Callable[..., Any], content: dict[str, Any]) -> Any:
        """Run a command on the pool; log it when slow, with where the time went."""
        received = time.monotonic()
        started = finished = received
        cpu = 0.0

        # The login session to check first, in the command's hop (_Consumer.receive).
        due, self.session_due = self.session_due, False
        login = (self.session_key, self.session_user) if due and self.session_user else None

        def timed_handler(consumer: TableConsumer, content: dict[str, Any]) -> Any:
            nonlocal started, finished, cpu
            started, cpu_start = time.monotonic(), time.thread_time()
            try:
                _connect_first()
                if login is not None and not still_logged_in(*login):
                    raise SessionEnded()  # before the command: nothing of it has run
                with querycount.step(kind):
                    return handler(consumer, content)
            finally:
                finished, cpu = time.monotonic(), time.thread_time() - cpu_start

        # A command whose effect is the same when run twice runs again on a new connection
        # when the server ended its own, as a read does (run_read).
        run = run_read if kind in self.REPEATABLE else run_command
        turn_at = received
        try:
            if kind not in self.TAKE_TURNS:  # no table lock: no turn to wait for
                return await run(timed_handler)(self, content)
            async with table_turns().turn(self.table_id):
                turn_at = started = finished = time.monotonic()
                return await run(timed_handler)(self, content)
        finally:
            total = (time.monotonic() - received) * 1000
            if total >= settings.SLOW_COMMAND_MS:
                logger.warning(
                    "table %s: slow %s: %.0f ms = %.0f waiting for the table's turn + %.0f"
                    " waiting for a thread + %.0f running (%.0f of it on the CPU) + %.0f back"
                    " to the event loop",
                    self.table_id, kind, total, (turn_at - received) * 1000,
                    (started - turn_at) * 1000, (finished - started) * 1000, cpu * 1000,
                    (time.monotonic() - finished) * 1000,
                )  # fmt: skip

    # Handlers run in a worker thread (sync ORM); each is one service call.

    def _sit(self, content: dict[str, Any]) -> dict[str, Any]:
        position = content.get("position")
        if position is not None and (isinstance(position, bool) or not isinstance(position, int)):
            raise TypeError("position")
        seat = services.sit(self.user, self.table_id, position)
        return {"position": seat.position}

    def _stand(self, content: dict[str, Any]) -> None:
        services.stand(self.user)

    def _start(self, content: dict[str, Any]) -> dict[str, Any]:
        return {"round": services.start_round(self.user, self.table_id).pk}

    def _submit(self, content: dict[str, Any]) -> dict[str, Any]:
        chi = content["chi"]
        version = content.get("version")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise TypeError("version")
        player = services.submit_arrangement(
            self.user, content["round"], chi, seen_version=version, table_id=self.table_id
        )
        return {"round": player.round_id}

    def _draft(self, content: dict[str, Any]) -> None:
        version = content.get("version")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise TypeError("version")
        round_id, chi = content["round"], content["chi"]
        services.save_draft(self.user, round_id, chi, seen_version=version, table_id=self.table_id)

    def _between(self, content: dict[str, Any]) -> dict[str, Any]:
        round_id = content["round"]
        if isinstance(round_id, bool) or not isinstance(round_id, int):
            raise TypeError("round")
        dealt = services.between_rounds(self.user, self.table_id, round_id, content["type"])
        return {"round": dealt.pk} if dealt is not None else {}

    def _client_seed(self, content: dict[str, Any]) -> None:
        services.set_client_seed(self.user, self.table_id, content["seed"])

    def _ping(self, content: dict[str, Any]) -> dict[str, Any]:
        version = services.heard_from(self.user, self.table_id, self.connection_id)
        from django.utils import timezone

        return {"server_now": timezone.now().isoformat(), "table_version": version}

    REPEATABLE = frozenset({"ping"})
    """Commands that change nothing, or only what running them again sets the same (the
    socket's presence): retried on a lost database connection like the reads."""

    HANDLERS: dict[str, Callable[[TableConsumer, dict[str, Any]], Any]] = {
        "sit": _sit,
        "stand": _stand,
        "leave": _stand,
        "start": _start,
        "submit": _submit,
        "draft": _draft,
        "client_seed": _client_seed,
        "ready": _between,
        "wait": _between,
        "ping": _ping,
    }

    TAKE_TURNS = frozenset(HANDLERS) - REPEATABLE
    """Commands that lock the table's row first (every game command but a ping): they wait
    for the table's turn in this process (TableTurns) before they take a thread. Not the
    chat's, which ChatTableConsumer adds to HANDLERS."""
