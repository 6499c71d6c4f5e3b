"""A whole round over real websockets: two daphne processes, a Celery worker, PostgreSQL, Redis."""

from __future__ import annotations

import asyncio

import pytest
from django.contrib.auth.hashers import make_password
from django.core.management import call_command

from games import services
from games.models import Round, RoundState
from games.selectors import settle_round_result
from ledger import selectors as ledger_selectors
from tests.games.arranging import naive_arrangement
from tests.games.live import live_stack
from tests.wsclient import Player, card_strings, login

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(scope="module")
def stack(django_db_setup, django_db_blocker, tmp_path_factory):  # type: ignore[no-untyped-def]
    with live_stack(tmp_path_factory.mktemp("stack")) as running:
        yield running


@pytest.fixture
def players(players, password):  # type: ignore[no-untyped-def]
    """The servers hash with PBKDF2 (the tests' fast MD5 is in-process only)."""
    for user in players:
        user.password = make_password(password, hasher="pbkdf2_sha256")
        user.save(update_fields=["password"])
    return players


def _table(host, **rules):  # type: ignore[no-untyped-def]
    return services.create_table(
        host,
        name="Bàn live",
        stake=10,
        rules_overrides={"reveal_seconds": 2, "arrange_seconds": 60, "start_seconds": 60, **rules},
    )


async def _connect(stack, users, password, table_id):  # type: ignore[no-untyped-def]
    clients = []
    for index, user in enumerate(users):
        base = stack.bases[index % len(stack.bases)]  # players spread over both servers
        client = Player(
            base,
            await asyncio.to_thread(login, base, user.username, password),
            table_id,
            user.username,
        )
        await client.connect()
        clients.append(client)
    return clients


def test_four_players_on_two_servers_play_one_private_round_settled_by_the_rules(
    stack, players, password
):
    table = _table(players[0])
    before = {p.pk: ledger_selectors.balance(p) for p in players}

    async def play():  # type: ignore[no-untyped-def]
        clients = await _connect(stack, players, password, table.pk)
        for client in clients:
            assert (await client.request(type="sit"))["type"] == "ok"
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

    round_id, dealt, clients, settled = asyncio.run(play())

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
    table = _table(players[0], arrange_seconds=30, start_seconds=5)

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

    round_id, settled = asyncio.run(play())
    round_ = Round.objects.get(pk=round_id)
    assert round_.state == RoundState.SETTLED
    silent = round_.players.get(user=players[1])
    assert silent.arrangement is None
    outcome = next(p for p in settled["players"] if p["position"] == silent.position)
    assert outcome["foul"] is True
    assert outcome["chi_lost"] == 3
    assert ledger_selectors.round_closure(round_id) is not None
    call_command("ledger_check")
