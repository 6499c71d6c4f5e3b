"""Watching a duplicate table over real websockets (two daphne processes, Celery, Redis):
a spectator who may still be dealt the board gets none of its cards, one who has played it
gets the whole showdown (docs/duplicate.md)."""

from __future__ import annotations

import asyncio

import pytest

from games import services
from games.models import Round
from tests.support.arranging import naive_arrangement
from tests.support.duplicates import duplicate_table, play
from tests.support.live import MARKS, live_stack
from tests.support.wsclient import Player, card_strings, login, run_async

pytestmark = MARKS


@pytest.fixture
def stack(tmp_path):  # type: ignore[no-untyped-def]
    with live_stack(tmp_path) as running:
        yield running


def test_a_duplicate_showdown_reaches_only_those_who_cannot_be_dealt_the_board_again(
    people, schedule, password, stack
):
    play(duplicate_table(people[2], schedule, "Trước"), people[2:4])  # p2 played board 1
    # The host deals: the automatic start's longest countdown, so a loaded machine's logins
    # (a CI run's took longer than the default 9 s) do not see the round dealt before them.
    table = duplicate_table(people[0], schedule, start_seconds=60)
    for user in people[0:2]:
        services.sit(user, table.pk)

    async def scenario() -> None:
        sockets = {}
        for index, user in enumerate([people[0], people[1], people[2], people[4]]):
            base = stack.bases[index % 2]  # the audience's split crosses Redis to both servers
            cookie = await asyncio.to_thread(login, base, user.username, password)
            sockets[user.username] = client = Player(base, cookie, table.pk, user.username)
            await client.connect()
        player, veteran, stranger = sockets["p0"], sockets["p2"], sockets["p4"]
        started = await player.request(type="start")
        assert started["type"] == "ok", started
        for name in ("p0", "p1"):
            dealt = await sockets[name].wait_for(lambda m: m["type"] == "cards")
            reply = await sockets[name].request(
                type="submit", round=dealt["round"], chi=naive_arrangement(dealt["cards"])
            )
            assert reply["type"] == "ok", reply
        for client in sockets.values():
            await client.wait_for(lambda m: m["type"] == "settled", timeout=60)
        round_ = await asyncio.to_thread(Round.objects.get, table=table)
        dealt_cards = await asyncio.to_thread(
            lambda: {c for p in round_.players.all() for c in p.cards}
        )

        # The stranger (p4, never dealt board 1) watched the whole round and got no card.
        reveals = [m for m in stranger.received if m["type"] == "reveal"]
        assert len(reveals) == 3 and all(m["withheld"] for m in reveals)
        assert card_strings(stranger.received) == set()
        settled = next(m for m in stranger.received if m["type"] == "settled")
        assert settled["withheld"] and settled["server_seed"] == ""
        assert settled["board"] == {"schedule": schedule.pk, "number": 1, "revealed": False}
        # Nor anyone's result: the rows name the players, nothing of how it went for them.
        assert [set(row) for row in settled["players"]] == [{"position", "user", "name"}] * 2
        # Nor in a snapshot asked for afterwards: no card, no result, no balance after it.
        await stranger.send(type="snapshot", ref="again")
        snapshot = await stranger.wait_for(lambda m: m.get("ref") == "again")
        assert snapshot["type"] == "snapshot" and card_strings(snapshot) == set()
        summary = snapshot["round"]["summary"]
        assert [set(row) for row in summary["players"]] == [{"position", "user", "name"}] * 2
        dealt_in = {p.user_id for p in await asyncio.to_thread(lambda: list(round_.players.all()))}
        assert [s["balance"] for s in snapshot["seats"] if s["user"] in dealt_in] == [None, None]
        # The round's players get every result, and the new balances.
        mine = next(m for m in player.received if m["type"] == "settled")
        assert all(row["xu"] is not None and row["balance"] is not None for row in mine["players"])

        # p2 has played board 1 to the end: they see every hand, as the round's players do.
        assert card_strings(veteran.received) == dealt_cards
        assert card_strings(player.received) == dealt_cards
        assert not any(m.get("withheld") for m in veteran.received + player.received)
        for client in sockets.values():
            await client.close()

    run_async(scenario())
