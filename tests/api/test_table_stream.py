"""The table stream in process (api.streams.TableStream on the test's channel layer): a
staff member let in to a private table by their role keeps it only in good standing, as
the socket; the table talk is not in the stream."""

from __future__ import annotations

import asyncio
import importlib
import json
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts import services as accounts
from api import limits
from api import services as api_services
from api.auth import authenticate_bearer
from api.root import api
from chat import services as chat_services
from games import consumers, selectors
from games import services as game_services
from games.models import Table
from tests.moderation.conftest import _staff
from tests.support.wsclient import run_async

# After api.root, which mounts the streams' router (importing api.streams first is circular).
streams = importlib.import_module("api.streams")
assert api.urls_namespace == "api"

pytestmark = pytest.mark.django_db(transaction=True)


def _open(user: Any, table: Table) -> streams.TableStream:
    """A table stream as ``table_stream`` opens it (its access checked the same way)."""
    token = api_services.create_token(user, name="test", scopes=["read"]).secret
    grant = authenticate_bearer(f"Bearer {token}")
    assert grant is not None
    private, by_role = streams._table_access(table.pk, grant.user)
    return streams.TableStream(grant, limits.acquire_stream(grant), table.pk, private, by_role)


async def _next(lines: AsyncIterator[bytes]) -> dict[str, Any]:
    """The stream's next line that is not a keep-alive."""
    while True:
        line = await asyncio.wait_for(lines.__anext__(), timeout=10)
        if line.strip():
            return dict(json.loads(line))


def test_a_moderator_s_table_stream_of_a_private_table_ends_when_they_are_suspended(
    players, make_user, monkeypatch, own_socket_threads
) -> None:
    monkeypatch.setattr(consumers, "ROLE_CHECK_SECONDS", 0.0)
    moderator = _staff(make_user, "mod", moderator=True)
    table = game_services.open_table(players[0], name="Nhà riêng", stake=10, is_private=True)
    assert selectors.enters_as_staff(table, moderator)
    stream = _open(moderator, table)
    assert stream.by_role

    async def scenario() -> list[dict[str, Any]]:
        lines = stream.body()
        seen = [await _next(lines)]
        loop = asyncio.get_running_loop()
        until = timezone.now() + timedelta(days=1)
        await loop.run_in_executor(
            None, lambda: accounts.suspend_user(moderator, until=until, reason="Đang xem xét")
        )
        await loop.run_in_executor(None, game_services.stand, players[0])  # the table moves
        seen.append(await _next(lines))
        await lines.aclose()  # type: ignore[attr-defined]
        return seen

    snapshot, last = run_async(scenario())
    assert snapshot["type"] == "snapshot"
    # Not the host's seat_left: the stream ends before it sends anything more.
    assert last == {"type": "end", "reason": "forbidden"}


def test_a_player_s_table_stream_carries_no_table_talk(players, table, own_socket_threads) -> None:
    game_services.sit(players[0], table.pk)
    game_services.sit(players[1], table.pk)
    stream = _open(players[1], table)

    async def scenario() -> list[str]:
        lines = stream.body()
        seen = [(await _next(lines))["type"]]
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(
            None, lambda: chat_services.post_message(players[0], table.pk, text="xin chào")
        )
        await loop.run_in_executor(None, game_services.stand, players[0])
        while seen[-1] != "seat_left":
            seen.append((await _next(lines))["type"])
        await lines.aclose()  # type: ignore[attr-defined]
        return seen

    seen = run_async(scenario())
    assert seen[0] == "snapshot"
    assert not set(seen) & streams.TABLE_TALK  # the chat message before the seat_left
