"""One person over a real websocket, bots on the real Celery worker: daphne, Celery with
beat, PostgreSQL and Redis, as in production."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.core.management import call_command

from games.models import Round, RoundState
from ledger import selectors as ledger_selectors
from tests.support import live
from tests.support.arranging import naive_arrangement
from tests.support.live import live_stack
from tests.support.wsclient import Player, card_strings, login, run_async

pytestmark = live.MARKS


@pytest.fixture
def stack(tmp_path):  # type: ignore[no-untyped-def]
    # Per test, and stopped before the database is flushed: a running sweeper holds locks
    # that deadlock the flush's TRUNCATE (see tests/games/test_live_round.py).
    with live_stack(tmp_path, servers=1) as running:
        yield running


async def _seated(stack: Any, person: Any, password: str, table_id: int) -> Player:
    """The person's table socket, through the first daphne, once they have sat down."""
    base = stack.bases[0]
    client = Player(base, await asyncio.to_thread(login, base, person.username, password), table_id)
    await client.connect()
    assert (await client.request(type="sit"))["type"] == "ok"
    return client


async def _submit_as_dealt(client: Player, cards: dict[str, Any]) -> None:
    reply = await client.request(
        type="submit",
        round=cards["round"],
        chi=naive_arrangement(cards["cards"]),
        version=client.version,
    )
    assert reply["type"] == "ok", reply


def test_a_person_on_a_websocket_plays_a_round_with_bots_run_by_the_celery_worker(
    stack, person, password, bot_table
):
    async def play():  # type: ignore[no-untyped-def]
        client = await _seated(stack, person, password, bot_table.pk)
        bots = [
            await client.wait_for(
                lambda m: m["type"] == "seat_taken" and m["seat"]["is_bot"], timeout=15
            )
            for _ in range(3)
        ]
        cards = await client.wait_for(lambda m: m["type"] == "cards", timeout=20)
        await _submit_as_dealt(client, cards)
        settled = await client.wait_for(lambda m: m["type"] == "settled", timeout=40)
        await client.close()
        return client, bots, cards, settled

    client, bots, cards, settled = run_async(play())
    assert all(b["seat"]["difficulty"] in {"easy", "normal"} for b in bots)
    # Privacy: until the showdown the person received no card but their own.
    for message in client.received:
        if message["type"] == "reveal":
            break
        assert card_strings(message) <= set(cards["cards"]), message["type"]
    round_ = Round.objects.get(pk=cards["round"])
    assert round_.state == RoundState.SETTLED
    players = list(round_.players.select_related("user"))
    assert sum(p.user.is_bot for p in players) == 3
    assert all(p.arrangement for p in players)  # every bot submitted in time
    assert {row["position"]: row["xu"] for row in settled["players"]} == {
        p.position: p.xu for p in players
    }
    assert ledger_selectors.round_closure(round_.pk) is not None
    call_command("ledger_check")


def test_bots_still_play_their_turn_when_the_worker_holding_it_dies(
    stack, person, password, bot_table
):
    async def play():  # type: ignore[no-untyped-def]
        client = await _seated(stack, person, password, bot_table.pk)
        cards = await client.wait_for(lambda m: m["type"] == "cards", timeout=30)
        await asyncio.sleep(1)  # the worker has taken the bots' delayed turns by now
        await asyncio.to_thread(stack.kill_worker, stack.workers[-1], 9)
        await asyncio.to_thread(stack.start_worker, f"w{len(stack.workers) + 1}")
        await _submit_as_dealt(client, cards)
        await client.wait_for(lambda m: m["type"] == "settled", timeout=60)
        await client.close()
        return cards["round"]

    round_id = run_async(play())
    round_ = Round.objects.get(pk=round_id)
    assert round_.state == RoundState.SETTLED
    assert all(p.arrangement for p in round_.players.all())  # no bot was binh lủng
    # The new worker's beat played the turns the dead worker held (bots.sweep).
    newest = max(stack.logs.glob("w*.log"), key=lambda log: log.stat().st_mtime)
    assert "caught up" in newest.read_text()
    call_command("ledger_check")
