"""After a seat changes, a table's chat roles are read once per event in a process, and each
socket's user gets their own (chat.consumers.table_roles, chat.selectors.TableRoles)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from chat import consumers, selectors
from chat import services as chat
from games import services as games


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The table ids ``selectors.table_roles`` is read for (each read counted)."""
    seen: list[int] = []
    real = selectors.table_roles

    def counted(table_id: int) -> selectors.TableRoles:
        seen.append(table_id)
        return real(table_id)

    monkeypatch.setattr(selectors, "table_roles", counted)
    return seen


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("own_socket_threads")
def test_the_sockets_of_a_table_share_one_read_of_its_roles_for_one_event(
    players: list[Any], table: Any, reads: list[int]
) -> None:
    an, binh, chi, dung = players

    async def four_sockets(version: Any) -> list[dict[str, Any]]:
        shared = await asyncio.gather(*(consumers.table_roles(table.pk, version) for _ in range(4)))
        return [roles.of(user) for roles, user in zip(shared, (an, binh, chi, dung), strict=True)]

    async def run() -> None:
        roles = await four_sockets(12)
        assert reads == [table.pk]
        assert [r["host"] for r in roles] == [True, False, False, False]
        assert [r["post"] for r in roles] == [["players"], ["players"], [], []]
        # A socket a moment behind the others still shares that read.
        await consumers.table_roles(table.pk, 12)
        assert reads == [table.pk]
        # The next event reads again, and so does one without a version.
        await four_sockets(13)
        assert reads == [table.pk] * 2
        await consumers.table_roles(table.pk, None)
        await consumers.table_roles(table.pk, None)
        assert reads == [table.pk] * 4

    asyncio.run(run())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("own_socket_threads")
def test_a_read_is_forgotten_soon_after_so_an_old_version_reads_afresh(
    players: list[Any], table: Any, reads: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(consumers, "ROLES_KEPT_SECONDS", 0.0)

    async def run() -> None:
        await consumers.table_roles(table.pk, 20)
        await asyncio.sleep(0.01)  # the read's done callback, then its timer
        assert (table.pk, 20) not in consumers._roles
        await consumers.table_roles(table.pk, 20)
        assert reads == [table.pk] * 2

    asyncio.run(run())


@pytest.mark.django_db
def test_the_roles_follow_the_seats_and_the_spectators_setting(
    players: list[Any], table: Any
) -> None:
    an, binh, chi, _dung = players
    chat.set_chat_settings(an, table.pk, spectators="own")
    roles = selectors.table_roles(table.pk)
    assert roles.of(chi) == {"type": "chat_role", "host": False, "post": ["spectators"]}
    assert roles.of(an) == selectors.chat_role(an, table.pk)
    # An stands up: Bình, the person seated longest, hosts now; Chi sits and plays.
    games.stand(an)
    games.sit(chi, table.pk)
    roles = selectors.table_roles(table.pk)
    assert roles.of(binh) == {"type": "chat_role", "host": True, "post": ["players"]}
    assert roles.of(chi) == {"type": "chat_role", "host": False, "post": ["players"]}
    assert roles.of(an) == {"type": "chat_role", "host": False, "post": ["spectators"]}
