"""A logged-in session made directly in the database, as a login would make it (no
password, so no hashing): the cookie a scripted player's socket presents."""

from __future__ import annotations

from typing import Any


def session_key(user: Any) -> str:
    """The ``sessionid`` of a new session logged in as ``user`` (signed with the current
    ``SECRET_KEY``: a server process checks it with its own)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return str(session.session_key)
