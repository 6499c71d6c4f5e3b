"""The table socket with table talk: the games consumer plus chat messages.

Chat messages and reactions go to the whole table group; each socket drops those from
senders its user blocked (`social`) or muted, so a blocked user's words never reach the
blocker's browser. The set is read on connect, changed at once by this socket's own
`mute`/`unmute`, and read again at most every CHAT_HIDDEN_REFRESH_SECONDS (a block made
elsewhere applies within that time). After a seat changes hands or the settings change,
each socket is told its user's role again (`chat_role`: host or not, where they may write).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import translation

from chat import selectors, services
from games.consumers import TableConsumer, run_read

logger = logging.getLogger(__name__)

FILTERED = {"chat_message", "chat_reaction"}
# After these, who hosts the table (social's acting host) and who may write may have changed.
SEATING = {"seat_taken", "seat_left", "chat_settings"}


# The chat roles of a table read after one of its events, by (table, version), shared by
# the sockets of the table in this process: each socket used to read the same rows after
# every seat taken or left (a warm-up's 200 tables: about ten reads of four queries each
# a table). Kept ROLES_KEPT_SECONDS after the read, for sockets a moment behind.
_roles: dict[tuple[int, int], asyncio.Future[selectors.TableRoles]] = {}
ROLES_KEPT_SECONDS = 2.0


async def table_roles(table_id: int, version: Any) -> selectors.TableRoles:
    """The table's chat roles as they are since its event of ``version`` (read now when
    the event has none). Every socket of the table in this process that receives the event
    shares one read; a failed read fails each of them, and the next event reads again."""
    if isinstance(version, bool) or not isinstance(version, int):
        return await run_read(selectors.table_roles)(table_id)  # type: ignore[no-any-return]
    key = (table_id, version)
    shared = _roles.get(key)
    if shared is None:
        shared = _roles[key] = asyncio.ensure_future(run_read(selectors.table_roles)(table_id))
        loop = asyncio.get_running_loop()
        shared.add_done_callback(
            lambda _read: loop.call_later(ROLES_KEPT_SECONDS, _roles.pop, key, None)
        )
    return await asyncio.shield(shared)


class ChatTableConsumer(TableConsumer):
    hidden: frozenset[int] = frozenset()
    hidden_at = 0.0
    # The chat state read with the socket's arrival (its snapshot's thread call), sent
    # right after the snapshot.
    arrival_chat: dict[str, Any] | None = None

    async def connect(self) -> None:
        await super().connect()
        if not getattr(self, "present", False):
            return  # refused
        state, self.arrival_chat = self.arrival_chat, None
        with translation.override(self._language()):
            try:
                if state is not None:
                    await self._send_chat_state(state)
                else:  # not read with the arrival: read now
                    await self.send_chat_state()
            except Exception:
                logger.exception("table %s: chat state failed", self.table_id)
                await self.server_error()

    def _arrive(self) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """The table's arrival, then the chat state in the same thread call: one hop to a
        command thread, one connection check, for a socket's arrival (a storm's 800)."""
        arrived = super()._arrive()
        self.arrival_chat = None
        if arrived is not None:
            try:
                table, seated = self.read_with_snapshot or (None, None)
                self.arrival_chat = selectors.chat_state(
                    self.user, self.table_id, self._language(), table=table, seated=seated
                )
            except (OperationalError, InterfaceError):
                raise  # the arrival's read is tried again on a new connection (run_read)
            except Exception:
                # The snapshot stands; connect() reads the chat state again, on its own.
                logger.exception("table %s: chat state with the arrival failed", self.table_id)
        return arrived

    async def send_chat_state(self, ref: Any = None) -> None:
        state = await run_read(selectors.chat_state)(self.user, self.table_id, self._language())
        await self._send_chat_state(state, ref)

    async def _send_chat_state(self, state: dict[str, Any], ref: Any = None) -> None:
        self._remember_hidden(state.pop("hidden"))
        await self.send_json({**state, "ref": ref})

    def _remember_hidden(self, ids: Any) -> None:
        self.hidden, self.hidden_at = frozenset(ids), time.monotonic()

    async def _hidden(self) -> frozenset[int]:
        if time.monotonic() - self.hidden_at > settings.CHAT_HIDDEN_REFRESH_SECONDS:
            ids = await run_read(selectors.hidden_senders)(self.user.pk)
            self._remember_hidden(ids)
        return self.hidden

    async def game_event(self, event: dict[str, Any]) -> None:
        head = event["head"]  # the event's type and user (games.events.message)
        if head.get("type") in FILTERED:
            try:
                if head.get("user") in await self._hidden():
                    return
            except Exception:
                # Not knowing whom this user blocked, deliver nothing from anyone.
                logger.exception("table %s: hidden senders unknown", self.table_id)
                return
        await super().game_event(event)
        if head.get("type") in SEATING:
            try:
                role = (await table_roles(self.table_id, head.get("version"))).of(self.user)
            except Exception:
                logger.exception("table %s: chat role failed", self.table_id)
                return
            await self.send_json(role)

    # Handlers run in a worker thread (sync ORM); each is one service call.

    def _chat(self, content: dict[str, Any]) -> dict[str, Any]:
        message = services.post_message(
            self.user,
            self.table_id,
            text=content.get("text"),
            phrase=content.get("phrase"),
            channel=content.get("channel"),
        )
        return {"id": message.pk}

    def _react(self, content: dict[str, Any]) -> None:
        services.react(self.user, self.table_id, content["reaction"])

    def _mute(self, content: dict[str, Any]) -> dict[str, Any]:
        muted = services.mute_player(self.user, content["user"])
        self._remember_hidden(self.hidden | muted)
        return {"muted": sorted(muted)}

    def _unmute(self, content: dict[str, Any]) -> dict[str, Any]:
        muted = services.unmute_player(self.user, content["user"])
        self._remember_hidden(selectors.hidden_senders(self.user.pk))
        return {"muted": sorted(muted)}

    def _report(self, content: dict[str, Any]) -> dict[str, Any]:
        case = services.report_message(
            self.user, self.table_id, content["message"], content.get("text", "")
        )
        return {"case": case}

    def _settings(self, content: dict[str, Any]) -> dict[str, Any]:
        changed = services.set_chat_settings(
            self.user,
            self.table_id,
            spectators=content.get("spectators"),
            word_filter=content.get("word_filter"),
        )
        return {"settings": selectors.settings_payload(changed)}

    HANDLERS: dict[str, Callable[[TableConsumer, dict[str, Any]], Any]] = {
        **TableConsumer.HANDLERS,
        "chat": _chat,
        "react": _react,
        "mute": _mute,
        "unmute": _unmute,
        "report_chat": _report,
        "chat_settings": _settings,
    }
