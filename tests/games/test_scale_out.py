"""One table played across two hosts (network namespaces with a daphne and a worker each),
then on the one left when the other dies: the scale-out topology of docs/deploy.md."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.core.management import call_command

from games import services
from games.models import Round, RoundState
from games.selectors import settle_round_result
from ledger import selectors as ledger_selectors
from tests.support import live, netns
from tests.support.arranging import naive_arrangement
from tests.support.redisserver import REDIS_SERVER
from tests.support.scaleout import two_hosts
from tests.support.services import CI
from tests.support.wsclient import Player, login, run_async

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(REDIS_SERVER is None, reason="no redis-server to start a private Redis"),
]

# Not table events: private messages, and table talk (unversioned).
PRIVATE = {"cards", "submission", "ok", "error", "snapshot"} | live.TABLE_TALK


@pytest.fixture
def cluster(tmp_path):  # type: ignore[no-untyped-def]
    reason = netns.unavailable()
    if reason is not None:
        if CI:
            pytest.fail(f"CI=true but {reason}")
        pytest.skip(reason)
    # Per test, and stopped before the database is flushed (a sweeper's locks would
    # deadlock the flush's TRUNCATE); the namespaces are deleted even when the test fails.
    with two_hosts(tmp_path) as running:
        yield running


async def _deal(clients: list[Player]) -> int:
    """The host presses Start (or the countdown after a round got there first): the round."""
    reply = await clients[0].request(type="start")
    assert reply["type"] == "ok" or reply.get("code") == "round_running", reply
    started = await clients[0].wait_for(lambda m: m["type"] == "round_started")
    return int(started["round"])


async def _submit_all(clients: list[Player], round_id: int) -> None:
    for client in clients:
        cards = await client.wait_for(lambda m: m["type"] == "cards" and m["round"] == round_id)
        reply = await client.request(
            type="submit",
            round=round_id,
            chi=naive_arrangement(cards["cards"]),
            version=client.version,
        )
        assert reply["type"] == "ok", reply


async def _settled(client: Player, round_id: int) -> None:
    await client.wait_for(lambda m: m["type"] == "settled" and m["round"] == round_id, 40)


async def _play_round(clients: list[Player]) -> int:
    """Deal, everyone submits; the round's id once every socket saw it settle."""
    round_id = await _deal(clients)
    await _submit_all(clients, round_id)
    for client in clients:
        await _settled(client, round_id)
    return round_id


def _table_events(client: Player, scheduled: bool = False) -> list[dict[str, Any]]:
    """The public table events after the snapshot; with ``scheduled``, the showdowns' later
    chi instead (they carry the version of the step that sent them: docs/protocol.md)."""
    return [
        {k: v for k, v in m.items() if k != "_at"}
        for m in client.received[1:]
        if m["type"] not in PRIVATE and bool(m.get("scheduled")) == scheduled
    ]


def _assert_every_event_in_order(sockets: list[Player]) -> None:
    """Each socket saw every table event after its snapshot, in version order, no gap;
    and every socket saw the same event at the same version."""
    by_version: dict[int, dict[str, Any]] = {}
    for socket in sockets:
        assert socket.received[0]["type"] == "snapshot", socket.name
        first = socket.received[0]["version"]
        events = _table_events(socket)
        versions = [m["version"] for m in events]
        assert versions == list(range(first + 1, first + 1 + len(versions))), socket.name
        for event in events:
            assert by_version.setdefault(event["version"], event) == event, socket.name
    # Each showdown's later chi: in order, after the reveal they follow, the same for all.
    by_chi: dict[tuple[int, int], dict[str, Any]] = {}
    for socket in sockets:
        shown: dict[int, int] = {}
        for event in _table_events(socket, scheduled=True):
            key = (event["round"], event["revealed"])
            # The version is the step's that sent it: a reconnected socket's, its snapshot's.
            same = {k: v for k, v in event.items() if k not in ("version", "deadline")}
            assert by_chi.setdefault(key, same) == same, socket.name
            assert event["revealed"] > shown.get(event["round"], 0), socket.name
            shown[event["round"]] = event["revealed"]


def _assert_settled_exactly(round_ids: list[int], users: list[Any], before: dict[int, int]) -> None:
    won = dict.fromkeys(before, 0)
    for round_id in round_ids:
        round_ = Round.objects.get(pk=round_id)
        assert round_.state == RoundState.SETTLED, round_id
        expected = settle_round_result(round_).settlement
        for rp in round_.players.all():
            assert rp.xu == expected.player(str(rp.position)).xu, (round_id, rp.position)
            won[rp.user_id] += rp.xu
        assert ledger_selectors.round_closure(round_id) is not None
    for user in users:
        assert ledger_selectors.balance(user) - before[user.pk] == won[user.pk], user.username
    call_command("ledger_check")


def test_one_table_plays_across_two_hosts_and_on_the_survivor_when_one_host_dies(
    cluster, players, password
):
    host_a, host_b = cluster.hosts
    # The hosts are apart: PostgreSQL and Redis are reached over the link, never loopback.
    database = live.test_database_address()
    assert not cluster.reaches(host_a, database)
    assert cluster.reaches(host_a, (cluster.network.gateway, cluster.relay.port))
    table = services.create_table(
        players[0],
        name="Bàn hai máy",
        stake=10,
        rules_overrides={"reveal_seconds": 2, "arrange_seconds": 60, "start_seconds": 60},
    )
    before = {p.pk: ledger_selectors.balance(p) for p in players}
    homes = [host_a, host_a, host_b, host_b]  # the host (players[0]) is on host A

    async def play() -> tuple[list[int], list[Player], list[Player]]:
        clients = []
        for user, home in zip(players, homes, strict=True):
            base = cluster.base(home)
            cookie = await asyncio.to_thread(login, base, user.username, password)
            clients.append(Player(base, cookie, table.pk, user.username))
            await clients[-1].connect()
        for client in clients:
            assert (await client.request(type="sit"))["type"] == "ok"
        first = await _play_round(clients)

        # The next round: host A dies in the showdown, holding half the sockets (and perhaps
        # the next reveal's timer); its players come back through host B, logged in still.
        second = await _deal(clients)
        await _submit_all(clients, second)
        # This round's reveal: the first round's, never taken, would match at once and kill
        # host A while this round's showdown may be committing there, its broadcast unsent.
        await clients[0].wait_for(lambda m: m["type"] == "reveal" and m["round"] == second)
        await asyncio.to_thread(cluster.kill, host_a)
        print(f"host A's worker died holding {cluster.tasks_held(host_a)} timer task(s)")
        moved = []
        for client in clients[:2]:
            await client.close()
            moved.append(Player(cluster.base(host_b), client.cookie, table.pk, client.name))
            snapshot = await moved[-1].connect()
            assert snapshot["you"]["seated"], client.name
            assert snapshot["round"]["id"] == second, client.name
        survivors = moved + clients[2:]
        for client in survivors:
            if client in moved and client.received[0]["round"]["state"] == "settled":
                continue  # settled while it reconnected: its snapshot has the result
            await _settled(client, second)
        third = await _play_round(survivors)
        for client in survivors:
            await client.close()
        return [first, second, third], clients, moved

    try:
        rounds, clients, moved = run_async(play())
    except Exception as exc:
        raise AssertionError(cluster.log_tail()) from exc
    _assert_every_event_in_order(clients + moved)
    _assert_settled_exactly(rounds, players, before)
    # Both hosts reached PostgreSQL through the relay on the bridge.
    assert set(cluster.relay.peers) == {host_a.address, host_b.address}
