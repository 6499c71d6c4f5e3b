"""Arenas for tests: started through their services as their creators' buttons start them,
with every entrant's arena page open, and who sits at which of their tables; a tournament's
socket as a player's page opens it."""

from __future__ import annotations

import uuid
from typing import Any

from channels.testing import WebsocketCommunicator

from games.models import Seat
from tournaments.arena import services as arena
from tournaments.models import Tournament


def start_arena(users: list[Any], *, name: str, minutes: int, buy_in: int) -> Tournament:
    """Made by ``users[0]``, joined by the others, every page open, started now."""
    t = arena.create_arena(users[0], name=name, minutes=minutes, buy_in=buy_in)
    for user in users[1:]:
        arena.join(user, t.pk)
    for user in users:
        arena.socket_opened(user, t.pk, uuid.uuid4())
    arena.start_now(users[0], t.pk)
    return t


def present(t: Tournament, *users: Any) -> None:
    """Each user has the arena page open (an arena socket)."""
    for user in users:
        assert arena.socket_opened(user, t.pk, uuid.uuid4())


def seated_tables(t: Tournament) -> dict[int, set[int]]:
    """The arena's open tables and who sits at each."""
    out: dict[int, set[int]] = {}
    for link in t.tables.filter(broken_at__isnull=True):
        out[link.table_id] = set(
            Seat.objects.filter(table_id=link.table_id).values_list("user_id", flat=True)
        )
    return out


def tournament_socket(consumer: Any, path: str, user: Any, t: Tournament) -> WebsocketCommunicator:
    """A socket to ``consumer`` at ``path`` (not connected yet) as ``user``, routed to
    tournament ``t`` as the URL routes it."""
    communicator = WebsocketCommunicator(consumer.as_asgi(), path)
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"kwargs": {"tournament_id": t.pk}}
    return communicator
