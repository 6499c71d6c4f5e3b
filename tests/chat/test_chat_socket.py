"""Table talk over real websockets: two daphne processes, a Celery worker, PostgreSQL, Redis."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts import services as account_services
from moderation import services as moderation
from social import services as social
from tests.support.live import MARKS, connect_all, live_stack
from tests.support.wsclient import Player, run_async

pytestmark = MARKS


@pytest.fixture
def stack(tmp_path):  # type: ignore[no-untyped-def]
    with live_stack(tmp_path) as running:  # stopped before the database is flushed
        yield running


@pytest.fixture
def one_server(tmp_path):  # type: ignore[no-untyped-def]
    with live_stack(tmp_path, servers=1) as running:
        yield running


async def _connect(stack: Any, users: list[Any], password: str, table_id: int) -> list[Player]:
    return await connect_all(
        stack, users, password, table_id, ready=lambda m: m["type"] == "chat_state"
    )


def _said(text: str) -> Any:
    return lambda m: m["type"] == "chat_message" and m["text"] == text


def test_the_rate_limit_holds_across_server_processes(stack, players, password, table) -> None:
    async def run() -> None:
        an, an_again = await _connect(stack, [players[0], players[0]], password, table.pk)
        assert an.url != an_again.url or len(stack.bases) == 1
        replies = []
        for n in range(6):
            client = (an, an_again)[n % 2]
            replies.append(await client.request(type="chat", text=f"tin {n}"))
        assert [r["type"] for r in replies] == ["ok"] * 5 + ["error"]
        assert replies[5]["code"] == "chat_rate_limited"
        for client in (an, an_again):
            await client.close()

    run_async(run())


def test_long_messages_are_refused_and_markup_arrives_as_plain_text(
    stack, players, password, table
) -> None:
    async def run() -> None:
        an, binh = await _connect(stack, players[:2], password, table.pk)
        too_long = await an.request(type="chat", text="x" * 201)
        assert (too_long["type"], too_long["code"]) == ("error", "chat_too_long")
        assert "200" in too_long["message"]
        markup = '<img src=x onerror="alert(1)"><b>chào</b>'
        assert (await an.request(type="chat", text=markup))["type"] == "ok"
        heard = await binh.wait_for(lambda m: m["type"] == "chat_message")
        assert heard["text"] == markup  # plain text: the page shows it with textContent
        assert (heard["user"], heard["channel"]) == (players[0].pk, "players")
        bad = await an.request(type="chat", text=["not", "text"])
        assert bad["code"] == "malformed"
        for client in (an, binh):
            await client.close()

    run_async(run())


def test_a_blocked_users_messages_never_reach_the_blocker(stack, players, password, table) -> None:
    social.block_user(players[1], players[0])  # Bình blocks An

    async def run() -> None:
        an, binh, chi = await _connect(stack, players[:3], password, table.pk)
        assert (await an.request(type="chat", text="An nói"))["type"] == "ok"
        await chi.wait_for(_said("An nói"))
        assert (await an.request(type="react", reaction="laugh"))["type"] == "ok"
        await chi.wait_for(lambda m: m["type"] == "chat_reaction")
        # Bình's own words, sent after An's, reach Bình's socket after An's would have.
        assert (await binh.request(type="chat", text="Bình nói"))["type"] == "ok"
        await binh.wait_for(_said("Bình nói"))
        await chi.wait_for(_said("Bình nói"))
        kinds = [(m["type"], m.get("user")) for m in binh.received]
        assert ("chat_message", players[0].pk) not in kinds
        assert ("chat_reaction", players[0].pk) not in kinds
        for client in (an, binh, chi):
            await client.close()

    run_async(run())


def test_spectators_post_only_where_the_host_allows_and_sanctioned_users_not_at_all(
    one_server, players, password, table, moderator
) -> None:
    stack = one_server

    async def run() -> None:
        an, binh, chi = await _connect(stack, players[:3], password, table.pk)
        refused = await chi.request(type="chat", text="xem thôi", channel="players")
        assert refused["code"] == "chat_forbidden"
        changed = await an.request(type="chat_settings", spectators="own")
        assert changed["settings"]["spectators"] == "own"
        await chi.wait_for(lambda m: m["type"] == "chat_settings")
        refused = await chi.request(type="chat", text="vào bàn", channel="players")
        assert refused["code"] == "chat_forbidden"
        ok = await chi.request(type="chat", text="khán giả nói", channel="spectators")
        assert ok["type"] == "ok"
        heard = await an.wait_for(_said("khán giả nói"))
        assert heard["channel"] == "spectators"
        not_host = await binh.request(type="chat_settings", spectators="talk")
        assert not_host["code"] == "chat_forbidden"
        # Chi sits down: told at once that the players' chat is theirs now.
        assert (await chi.request(type="sit"))["type"] == "ok"
        role = await chi.wait_for(lambda m: m["type"] == "chat_role" and m["post"] == ["players"])
        assert role["host"] is False
        assert (await chi.request(type="chat", text="giờ tôi chơi"))["type"] == "ok"

        await asyncio.to_thread(
            moderation.mute, moderator, players[1].pk, hours=1, reason="chửi bậy"
        )
        muted = await binh.request(type="chat", text="hello")
        assert muted["code"] == "chat_muted"
        await asyncio.to_thread(
            account_services.suspend_user,
            players[0],
            until=timezone.now() + timedelta(hours=1),
            reason="gian lận",
        )
        suspended = await an.request(type="chat", text="hello")
        assert suspended["code"] == "chat_forbidden"
        for client in (an, binh, chi):
            await client.close()

    run_async(run())


def test_a_mute_survives_a_reload(one_server, players, password, table) -> None:
    stack = one_server

    async def run() -> None:
        an, binh = await _connect(stack, players[:2], password, table.pk)
        assert (await binh.request(type="mute", user=players[0].pk))["muted"] == [players[0].pk]
        await an.request(type="chat", text="không ai nghe")
        await binh.close()
        (binh,) = await _connect(stack, [players[1]], password, table.pk)
        state = next(m for m in binh.received if m["type"] == "chat_state")
        assert state["muted"] == [players[0].pk]
        assert state["history"] == []
        await an.request(type="chat", text="vẫn không nghe")
        await binh.request(type="chat", text="tôi nói")
        await binh.wait_for(_said("tôi nói"))
        assert not [m for m in binh.received if m.get("user") == players[0].pk]
        for client in (an, binh):
            await client.close()

    run_async(run())
