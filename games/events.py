"""Pushes to browsers. Services call these; the message leaves only after the commit.

Groups: ``lobby`` (table list), ``table-<id>`` (public events of a table: seats, round
progress, reveals), ``table-<id>-user-<uid>`` (one player's private events at that table:
their own cards), ``user-<uid>`` (what concerns one user wherever they are: a round dealt
to them, a tournament seating them, an invitation; the API's event stream listens to it,
api.streams). Spectators join only the public group. Every table event carries the
table ``version`` it produced. A public event may name its audience: a duplicate board's
showdown goes in full to those who may see its cards, withheld to the others.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from collections.abc import Coroutine, Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer
from django.db import transaction

from games.socket_session import digest

logger = logging.getLogger(__name__)

LOBBY = "lobby"
SEND_TIMEOUT = 5.0
"""Seconds a service thread waits for one broadcast before logging it as lost."""


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def private_group(table_id: int, user_id: int) -> str:
    return f"table-{table_id}-user-{user_id}"


def user_group(user_id: int) -> str:
    """One user's own events, at every table (the API's event stream: docs/api.md)."""
    return f"user-{user_id}"


def login_group(user_id: int) -> str:
    """Every socket a user opened logged in, whatever the session (games.socket_session:
    a logout names its session, a password change or a deactivation concerns them all)."""
    return f"login-{user_id}"


class _BroadcastLoop:
    """One event loop per process, in a daemon thread, for sends from synchronous code.

    ``async_to_sync`` outside a server (a Celery worker, a management command) runs every
    call in a new thread with a new event loop, and channels_redis opens a new Redis
    connection for each loop: several milliseconds per event. Here the loop, and so the
    layer's connection pool, lives as long as the process. A forked child (a prefork
    Celery worker) starts its own.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0

    def _current(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="broadcast", daemon=True).start()
                self._loop, self._pid = loop, os.getpid()
            return self._loop

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._current()).result(SEND_TIMEOUT)


_broadcast_loop = _BroadcastLoop()
_server_loop: asyncio.AbstractEventLoop | None = None


def serve_from(loop: asyncio.AbstractEventLoop) -> None:
    """Consumers call this on connect: the loop that reads the in-memory layer's queues."""
    global _server_loop
    _server_loop = loop


def _group_send(layer: BaseChannelLayer, group: str, message: dict[str, Any]) -> None:
    if not isinstance(layer, InMemoryChannelLayer):
        _broadcast_loop.run(layer.group_send(group, message))
        return
    # The in-memory layer's queues are plain asyncio queues of the server's loop: a put
    # from another thread's loop (the embedded Celery worker's) would not wake it, and
    # the event would wait for the next unrelated wake-up. Hand the send to that loop.
    loop = _server_loop
    if loop is not None and loop.is_running():
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(
            SEND_TIMEOUT
        )
    else:
        async_to_sync(layer.group_send)(group, message)


HEAD = ("type", "version", "user", "reason", "round")
"""The fields of an event the sockets act on themselves (ordering, filtering, closing)."""

Later = tuple[str, float, dict[str, Any], "dict[str, Any] | None"]
"""An event sent ahead of its time: a key (a later one with the same key replaces it), when
it is due (Unix time), the payload and, with an audience, what the others get."""


def message(
    payload: dict[str, Any],
    private: bool = False,
    audience: tuple[list[int], dict[str, Any] | None] | None = None,
    later: Sequence[Later] = (),
) -> dict[str, Any]:
    """The channel-layer message of an event: its JSON text, encoded once here for every
    socket that receives it (each socket used to encode the payload again, and the layer
    to decode it for each), and its ``head``: the fields sockets act on.

    With ``audience`` (users, others), the sockets of those users send ``text`` and every
    other socket of the group sends ``others`` (when given), also encoded once (a duplicate board's
    withheld cards: games.consumers.TableConsumer, docs/duplicate.md).

    ``later``: events that follow this one at a set time, such as a showdown's next chi
    (docs/protocol.md, "Reveals"). Each socket holds them until they are due
    (``games.sequencer.InOrder``): the client gets none of them before its time."""
    encoded: dict[str, Any] = {
        "type": "game.event",
        "head": {key: payload[key] for key in HEAD if key in payload},
        "text": json.dumps(payload),
        "private": private,
    }
    if audience is not None:
        users, others = audience
        encoded["audience"] = users
        if others is not None:
            encoded["others"] = json.dumps(others)
    if later:
        encoded["later"] = [
            {
                "key": key,
                "round": payload.get("round"),
                "at": at,
                "text": json.dumps(then),
                **({"others": json.dumps(others_then)} if others_then is not None else {}),
            }
            for key, at, then, others_then in later
        ]
    return encoded


def _send(
    group: str,
    payload: dict[str, Any],
    private: bool = False,
    audience: tuple[list[int], dict[str, Any] | None] | None = None,
    later: Sequence[Later] = (),
) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        _group_send(layer, group, message(payload, private, audience, later))
    except Exception:
        # The state is committed; a client that misses this event sees a version gap and
        # asks for a snapshot. Never let a broadcast failure surface as a failed action.
        logger.exception("broadcast to %s failed", group)


def publish(
    group: str,
    payload: dict[str, Any],
    *,
    private: bool = False,
    audience: tuple[list[int], dict[str, Any] | None] | None = None,
    later: Sequence[Later] = (),
) -> None:
    """Send ``payload`` (and ``later``: ``message``) to ``group`` once the current
    transaction commits (now if none).

    Sent after the commit, events of one table can overtake each other on their way: the
    next command of the table commits while this thread (or another process) is still
    sending. The table socket puts them back in version order (``games.sequencer``).
    """
    transaction.on_commit(lambda: _send(group, payload, private, audience, later))


def to_table(
    table_id: int,
    payload: dict[str, Any],
    *,
    audience: list[int] | None = None,
    others: dict[str, Any] | None = None,
    later: Sequence[Later] = (),
) -> None:
    """A public table event; with ``audience``, only those users get ``payload`` and every
    other socket of the table gets ``others`` (a duplicate board's cards: docs/duplicate.md).
    ``later``: the events that follow it at set times (``message``)."""
    publish(
        table_group(table_id),
        payload,
        audience=None if audience is None else (audience, others),
        later=later,
    )


def to_player(table_id: int, user_id: int, payload: dict[str, Any]) -> None:
    publish(private_group(table_id, user_id), payload, private=True)


def to_user(user_id: int, payload: dict[str, Any]) -> None:
    """An event for one user wherever they are (``user_group``), once the transaction commits."""
    publish(user_group(user_id), payload, private=True)


def shut_out(table_id: int, user_id: int, reason: str) -> None:
    """Close this user's sockets to the table with 4403 (games.consumers), once the
    transaction commits: they may no longer be there (a revoked link, a block)."""
    to_player(table_id, user_id, {"type": "shut_out", "user": user_id, "reason": reason})


def to_lobby(payload: dict[str, Any]) -> None:
    publish(LOBBY, payload)


def end_session(user_id: int, session_key: str) -> None:
    """Close the sockets of one login session (a logout), once the transaction commits."""
    _to_logins(user_id, {"type": "session.ended", "session": digest(session_key)})


def end_logins(user_id: int) -> None:
    """Close every socket of a user (deactivated, or deleted), once the transaction commits."""
    _to_logins(user_id, {"type": "session.ended", "session": None})


def check_logins(user_id: int) -> None:
    """Have every socket of a user check its login session again (their password changed:
    sessions from before the change no longer log them in), once the transaction commits."""
    _to_logins(user_id, {"type": "session.check"})


def _to_logins(user_id: int, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return

    def send() -> None:
        try:
            _group_send(layer, login_group(user_id), message)
        except Exception:
            # Each socket also checks its session itself (games.socket_session), so a lost
            # message leaves it open a while longer, never past that check.
            logger.exception("telling the sockets of user %s their login changed failed", user_id)

    transaction.on_commit(send)
