"""A person on the table socket and a bot account on the API at one table settle exactly
as two players on the socket do: the same ledger transfers, amount for amount."""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from games import services as game_services
from games.consumers import TableConsumer
from games.models import Round, RoundPlayer, Table
from games.services import common as services_common
from ledger.models import Transfer
from tests.games.arranging import naive_arrangement
from tests.games.played import run_timers
from tests.wsclient import run_async

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("own_socket_threads"),
]


@pytest.fixture
def same_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table deals from the same seeds: one deck for every round of the test."""
    monkeypatch.setattr(services_common, "new_server_seed", lambda: "5e" * 32)
    monkeypatch.setattr(services_common, "new_client_seed", lambda: "c1" * 8)


async def _open(user: Any, table: Table) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{table.pk}/")
    socket.scope["user"] = user
    socket.scope["url_route"] = {"kwargs": {"table_id": table.pk}}
    accepted, _ = await socket.connect(timeout=10)
    assert accepted
    assert (await socket.receive_json_from(timeout=10))["type"] == "snapshot"
    return socket


async def _reply(socket: WebsocketCommunicator, ref: int) -> dict[str, Any]:
    while True:
        message = await socket.receive_json_from(timeout=10)
        if message.get("ref") == ref and message["type"] in ("ok", "error"):
            return message


async def _cards(socket: WebsocketCommunicator) -> dict[str, Any]:
    while True:
        message = await socket.receive_json_from(timeout=10)
        if message["type"] == "cards":
            return message


def _shape(round_: Round) -> list[tuple[str, int, str, str]]:
    """The round's transfers with the wallets named by seat and the round's id left out."""
    seat_of = {
        f"wallet:{p.user_id}": f"seat{p.position}" for p in RoundPlayer.objects.filter(round=round_)
    }

    def name(key: str) -> str:
        return seat_of.get(key) or re.sub(rf"\b{round_.pk}\b", "R", key)

    return [
        (t.kind, t.amount, name(t.debit.key), name(t.credit.key))
        for t in Transfer.objects.filter(round_id=round_.pk)
        .select_related("debit", "credit")
        .order_by("pk")
    ]


def _socket_player_plays(host: User, table: Table, ref: int = 1) -> Any:
    """The host on the socket: sits, and returns the open socket."""

    async def sit() -> WebsocketCommunicator:
        socket = await _open(host, table)
        await socket.send_json_to({"type": "sit", "ref": ref})
        assert (await _reply(socket, ref))["type"] == "ok"
        return socket

    return sit


def test_a_human_on_the_socket_and_an_api_bot_settle_with_the_socket_paths_postings(
    players, make_user, token_for, api_client, same_deals
) -> None:
    bot = make_user("robot")
    bot_client = api_client(token_for(bot, "bot:play", "read"))
    assert bot_client.post("/bot/account/upgrade").status_code == 200
    rules = {"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 60}
    mixed = game_services.create_table(
        players[0], name="Người và máy", stake=10, seats=2, allow_bots=True, rules_overrides=rules
    )
    plain = game_services.create_table(
        players[1], name="Hai người", stake=10, seats=2, allow_bots=True, rules_overrides=rules
    )

    async def mixed_round() -> int:
        socket = await _socket_player_plays(players[0], mixed)()
        sat = await database_sync_to_async(bot_client.post)(f"/tables/{mixed.pk}/sit", {})
        assert sat.status_code == 200, sat.content
        await socket.send_json_to({"type": "start", "ref": 2})
        cards = await _cards(socket)
        await socket.send_json_to(
            {"type": "submit", "ref": 3, "round": cards["round"],
             "chi": naive_arrangement(cards["cards"])}
        )  # fmt: skip
        assert (await _reply(socket, 3))["type"] == "ok"
        me = (await database_sync_to_async(bot_client.get)("/account")).json()
        assert me["round"]["id"] == cards["round"]
        full = (await database_sync_to_async(bot_client.get)(f"/rounds/{cards['round']}")).json()
        chi = naive_arrangement(full["view"]["you"]["cards"])
        for _ in range(2):  # a resend changes nothing
            sent = await database_sync_to_async(bot_client.post)(
                f"/rounds/{cards['round']}/submit", {"chi": chi, "ref": "r1"}
            )
            assert sent.status_code == 200 and sent.json()["ref"] == "r1"
        await socket.disconnect()
        return int(cards["round"])

    async def plain_round() -> int:
        first = await _socket_player_plays(players[1], plain)()
        second = await _open(players[2], plain)
        await second.send_json_to({"type": "sit", "ref": 1})
        assert (await _reply(second, 1))["type"] == "ok"
        await first.send_json_to({"type": "start", "ref": 2})
        for ref, socket in ((3, first), (4, second)):
            cards = await _cards(socket)
            await socket.send_json_to(
                {"type": "submit", "ref": ref, "round": cards["round"],
                 "chi": naive_arrangement(cards["cards"])}
            )  # fmt: skip
            assert (await _reply(socket, ref))["type"] == "ok"
        await first.disconnect()
        await second.disconnect()
        return int(cards["round"])

    through_api = run_timers(Round.objects.get(pk=run_async(mixed_round())))
    through_sockets = run_timers(Round.objects.get(pk=run_async(plain_round())))

    assert through_api.state == through_sockets.state == "settled"
    assert _shape(through_api) == _shape(through_sockets)
    assert [(p.units, p.xu) for p in through_api.players.order_by("position")] == [
        (p.units, p.xu) for p in through_sockets.players.order_by("position")
    ]
    assert RoundPlayer.objects.filter(round=through_api, user=bot, submitted_at__isnull=False)
