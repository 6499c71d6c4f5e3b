"""A socket's login session: who it belongs to, and whether it still holds.

A socket opened with a login session lasts while that session does. What ends one is
told to the sockets as it happens (``games.events``): a logout closes the sockets of
that session, a deactivation or deletion of the user closes all of theirs, and a password
change has each of their sockets check its own session again (the browser that changed it
keeps its login; Django moves its session to the new password). What no signal tells (an
expiry, a row changed straight in the database) each socket finds by checking again at
most every ``SESSION_CHECK_SECONDS`` when a message arrives (``games.consumers``).

The checks here read the session as Django's own request check does
(``django.contrib.auth.get_user``: the user, the backend, the password hash with the key
fallbacks), and never write to it: Django flushes a session whose hash does not match and
moves one matched only by a fallback key to a new key, a change a socket cannot send back
to the browser as a cookie. The next page the browser loads does both.
"""

from __future__ import annotations

import hashlib
import importlib
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.sessions.backends.base import SessionBase

SESSION_CHECK_SECONDS = 60.0
"""How often, at most, a socket checks its session again when a message arrives: the net
for what no signal tells (an expiry, a row changed in the database)."""


class SessionEnded(Exception):
    """The socket's login session ended (or its user was deactivated): found by a command's
    thread before the command ran. The socket closes with CLOSE_UNAUTHENTICATED."""


class _Unwritten:
    """A session as ``auth.get_user`` reads it, whose changes go nowhere."""

    def __init__(self, session: SessionBase) -> None:
        self._session = session

    def __getitem__(self, key: str) -> Any:
        return self._session[key]

    def __setitem__(self, key: str, value: Any) -> None:
        pass

    def get(self, key: str, default: Any = None) -> Any:
        return self._session.get(key, default)

    def flush(self) -> None:
        pass

    def cycle_key(self) -> None:
        pass


def login_user(session: SessionBase) -> Any:
    """The user a login session belongs to (or AnonymousUser), as Django checks it for a
    request, without changing the session."""
    return auth.get_user(SimpleNamespace(session=_Unwritten(session)))  # type: ignore[arg-type]


def still_logged_in(session_key: str, user_id: int) -> bool:
    """Whether the session still logs this user in, read from its store now."""
    engine = importlib.import_module(settings.SESSION_ENGINE)
    user = login_user(engine.SessionStore(session_key))
    return bool(user.is_authenticated and user.pk == user_id)


def digest(session_key: str) -> str:
    """A session key as the sockets compare it (the key itself is a secret: not sent
    through the channel layer)."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:40]
