"""A whole round over real websockets: two daphne processes, a Celery worker, PostgreSQL, Redis."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from django.core.management import call_command

from games import services
from games.models import Round, RoundState
from games.rules.cards import format_cards, full_deck
from games.selectors import settle_round_result
from ledger import selectors as ledger_selectors
from tests.support import live
from tests.support.arranging import naive_arrangement
from tests.support.live import TABLE_TALK, live_stack
from tests.support.wsclient import Player, card_strings, login, run_async

pytestmark = live.MARKS


@pytest.fixture
def stack(tmp_path):  # type: ignore[no-untyped-def]
    # Per test, and stopped before the database is flushed: a running sweeper would
    # hold locks that deadlock the flush's TRUNCATE.
    with live_stack(tmp_path) as running:
        yield running


def _table(host, **rules):  # type: ignore[no-untyped-def]
    return services.create_table(
        host,
        name="Bàn live",
        stake=10,
        rules_overrides={"reveal_seconds": 2, "arrange_seconds": 60, "start_seconds": 60, **rules},
    )


_connect = live.connect_all  # players spread over both servers


async def _lobby(base):  # type: ignore[no-untyped-def]
    ws = await websockets.connect(base.replace("http", "ws") + "/ws/lobby/", origin=base)
    first = json.loads(await ws.recv())
    assert first["type"] == "lobby"
    return ws


async def _wait_ws(ws, predicate, timeout: float = 15.0):  # type: ignore[no-untyped-def]
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if predicate(message):
                return message


def test_four_players_on_two_servers_play_one_private_round_settled_by_the_rules(
    stack, players, password
):
    table = _table(players[0])
    before = {p.pk: ledger_selectors.balance(p) for p in players}

    async def play():  # type: ignore[no-untyped-def]
        lobby = await _lobby(stack.bases[1])
        clients = await _connect(stack, players, password, table.pk)
        for client in clients:
            assert (await client.request(type="sit"))["type"] == "ok"
        full = await _wait_ws(lobby, lambda m: m.get("table", {}).get("taken") == 4)
        assert full["table"]["id"] == table.pk
        await lobby.close()
        started = await clients[0].request(type="start")
        assert started["type"] == "ok", started
        round_id = started["round"]
        dealt = {}
        for client in clients:
            dealt[client.name] = (await client.wait_for(lambda m: m["type"] == "cards"))["cards"]
        for client in clients:
            reply = await client.request(
                type="submit",
                round=round_id,
                chi=naive_arrangement(dealt[client.name]),
                version=client.version,
            )
            assert reply["type"] == "ok", reply
        settled = [await c.wait_for(lambda m: m["type"] == "settled", timeout=30) for c in clients]
        for client in clients:
            await client.close()
        return round_id, dealt, clients, settled

    round_id, dealt, clients, settled = run_async(play())

    # Versions: after its snapshot, each client saw every public table event, in order (a
    # showdown's later chi are scheduled: they carry the version of the step that sent them).
    private = {"cards", "submission", "ok", "error", "snapshot"}
    private |= TABLE_TALK
    for client in clients:
        first = client.received[0]["version"]
        seen = [
            m["version"]
            for m in client.received
            if m["type"] not in private and not m.get("scheduled")
        ]
        assert seen == list(range(first + 1, first + 1 + len(seen))), client.name

    # Privacy: before the first reveal, nobody received a card they were not dealt.
    for client in clients:
        own = set(dealt[client.name])
        for message in client.received:
            if message["type"] == "reveal":
                break
            assert card_strings(message) <= own, (client.name, message["type"])
    # The showdown revealed chi 1, 2, 3 in order, each one step after the other.
    reveals = [m["revealed"] for m in clients[0].received if m["type"] == "reveal"]
    assert reveals in ([1, 2, 3], [0, 1, 2, 3])
    round_ = Round.objects.get(pk=round_id)
    assert round_.state == RoundState.SETTLED
    expected = settle_round_result(round_).settlement
    for rp in round_.players.all():
        outcome = expected.player(str(rp.position))
        assert rp.xu == outcome.xu
        assert ledger_selectors.balance(rp.user) - before[rp.user_id] == rp.xu
    assert {row["position"]: row["xu"] for row in settled[0]["players"]} == {
        rp.position: rp.xu for rp in round_.players.all()
    }
    call_command("ledger_check")


def test_a_player_who_never_submits_is_binh_lung_after_an_automatic_start_even_when_the_worker_dies(
    stack, players, password
):
    table = _table(players[0], arrange_seconds=30, start_seconds=5, on_timeout="foul")

    async def play():  # type: ignore[no-untyped-def]
        clients = await _connect(stack, players[:2], password, table.pk)
        for client in clients:
            assert (await client.request(type="sit"))["type"] == "ok"
        countdown = await clients[0].wait_for(lambda m: m["type"] == "countdown" and m["start_at"])
        cards = await clients[0].wait_for(lambda m: m["type"] == "cards", timeout=15)
        started = next(m for m in clients[0].received if m["type"] == "round_started")
        assert started["_at"] - countdown["_at"] >= 4  # 5 s countdown, no Start pressed
        reply = await clients[0].request(
            type="submit", round=cards["round"], chi=naive_arrangement(cards["cards"])
        )
        assert reply["type"] == "ok"
        # The worker holding the arranging deadline dies; a new one takes over.
        await asyncio.to_thread(stack.kill_worker, stack.workers[-1], 9)
        await asyncio.to_thread(stack.start_worker, "w2")
        settled = await clients[1].wait_for(lambda m: m["type"] == "settled", timeout=60)
        for client in clients:
            await client.close()
        return cards["round"], settled

    round_id, settled = run_async(play())
    round_ = Round.objects.get(pk=round_id)
    assert round_.state == RoundState.SETTLED
    silent = round_.players.get(user=players[1])
    assert silent.arrangement is None
    outcome = next(p for p in settled["players"] if p["position"] == silent.position)
    assert outcome["foul"] is True
    # Binh lủng loses every chi, unless the other's deal was an instant win: then no chi is
    # compared (docs/rules.md), which a random deal gives now and then.
    instant = any(p["instant"] for p in settled["players"])
    assert outcome["chi_lost"] == (0 if instant else 3)
    assert ledger_selectors.round_closure(round_id) is not None
    call_command("ledger_check")


def test_players_leave_before_and_during_the_showdown_and_one_reconnects_mid_round(
    stack, players, password
):
    table = _table(players[0])
    stayer, early, late = players[0], players[1], players[2]

    async def play():  # type: ignore[no-untyped-def]
        clients = await _connect(stack, [stayer, early, late], password, table.pk)
        for client in clients:
            assert (await client.request(type="sit"))["type"] == "ok"
        round_id = (await clients[0].request(type="start"))["round"]
        dealt = {
            c.name: (await c.wait_for(lambda m: m["type"] == "cards"))["cards"] for c in clients
        }
        submitted = naive_arrangement(dealt[late.username])
        assert (await clients[2].request(type="submit", round=round_id, chi=submitted))[
            "type"
        ] == "ok"
        # A dropped connection is not a leave: reconnect and get exactly your own view back.
        await clients[2].close()
        again = Player(stack.bases[1], clients[2].cookie, table.pk, late.username)
        snapshot = await again.connect()
        clients[2] = again
        # The early leaver forfeits everything before the showdown.
        assert (await clients[1].request(type="leave"))["type"] == "ok"
        await clients[0].request(
            type="submit", round=round_id, chi=naive_arrangement(dealt[stayer.username])
        )
        await clients[2].wait_for(lambda m: m["type"] == "reveal" and m["revealed"] >= 1)
        assert (await clients[2].request(type="leave"))["type"] == "ok"
        settled = await clients[0].wait_for(lambda m: m["type"] == "settled", timeout=30)
        for client in clients:
            await client.close()
        return round_id, dealt, snapshot, submitted, settled

    round_id, dealt, snapshot, submitted, settled = run_async(play())
    mine = snapshot["round"]["you"]
    assert mine["cards"] == dealt[late.username]
    assert [sorted(c) for c in mine["arrangement"]] == [sorted(c) for c in submitted]
    assert snapshot["round"]["deadline"] is not None
    others = set(dealt[stayer.username]) | set(dealt[early.username])
    assert not (card_strings(snapshot) & others)
    round_ = Round.objects.get(pk=round_id)
    statuses = {rp.user_id: (rp.status, rp.left_after_chi) for rp in round_.players.all()}
    assert statuses[early.pk] == ("left", 0)
    late_row = round_.players.get(user=late)
    assert statuses[late.pk] == ("left", 1) or (round_.settlement and late_row.status == "left")
    expected = settle_round_result(round_).settlement
    for rp in round_.players.all():
        assert rp.xu == expected.player(str(rp.position)).xu
    assert sum(row["xu"] for row in settled["players"]) == 0
    call_command("ledger_check")


def test_bad_input_is_refused_with_a_clear_error_and_changes_nothing(stack, players, password):
    table = _table(players[0])
    elsewhere = _table(players[3])

    async def play():  # type: ignore[no-untyped-def]
        an, binh = await _connect(stack, players[:2], password, table.pk)
        (watcher,) = await _connect(stack, players[3:4], password, elsewhere.pk)
        for client in (an, binh):
            await client.request(type="sit")
        round_id = (await an.request(type="start"))["round"]
        cards = (await an.wait_for(lambda m: m["type"] == "cards"))["cards"]
        errors = {}
        await an.send_raw("{not json")
        errors["json"] = await an.wait_for(lambda m: m["type"] == "error")
        await an.send_raw("[1, 2]")
        errors["shape"] = await an.wait_for(lambda m: m["type"] == "error")
        errors["type"] = await an.request(type="fly")
        forged = naive_arrangement(cards)
        # A card of the deck not dealt to this player (any three named ones may all be dealt).
        forged[0][0] = next(c for c in format_cards(full_deck()) if c not in cards)
        errors["forged"] = await an.request(type="submit", round=round_id, chi=forged)
        short = naive_arrangement(cards)
        short[2] = short[2][:2]
        errors["count"] = await an.request(type="submit", round=round_id, chi=short)
        errors["missing"] = await an.request(type="submit", round=round_id)
        errors["stale"] = await an.request(
            type="submit", round=round_id, chi=naive_arrangement(cards), version=0
        )
        errors["foreign"] = await watcher.request(
            type="submit", round=round_id, chi=naive_arrangement(cards)
        )
        errors["not_host"] = await binh.request(type="start")
        for _ in range(80):  # a flood
            await binh.send(type="ping")
        flood = await binh.wait_for(lambda m: m.get("code") == "rate_limited")
        for client in (an, binh, watcher):
            await client.close()
        return round_id, errors, flood, an

    async def foreign_origin():  # type: ignore[no-untyped-def]
        base = stack.bases[0]
        cookie = await asyncio.to_thread(login, base, players[0].username, password)
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(
                base.replace("http", "ws") + f"/ws/tables/{table.pk}/",
                additional_headers={"Cookie": cookie},
                origin="http://evil.example",
            )

    run_async(foreign_origin())
    round_id, errors, flood, an = run_async(play())
    codes = {name: reply.get("code") for name, reply in errors.items()}
    assert codes == {
        "json": "malformed",
        "shape": "malformed",
        "type": "unknown_type",
        "forged": "card_not_dealt",
        "count": "chi_size",
        "missing": "malformed",
        "stale": "stale_version",
        "foreign": "not_in_round",
        "not_host": "not_host",
    }
    assert all(reply["message"] for reply in errors.values())
    assert "bài" in errors["forged"]["message"]  # Vietnamese by default
    assert any(m["type"] == "snapshot" for m in an.received[1:])  # the stale tab was refreshed
    assert flood["message"]
    round_ = Round.objects.get(pk=round_id)
    assert round_.state == RoundState.ARRANGING
    assert all(rp.arrangement is None for rp in round_.players.all())
