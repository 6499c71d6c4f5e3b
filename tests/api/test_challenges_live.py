"""Challenges on the real stack (daphne, a Celery worker with beat, PostgreSQL, Redis): the
challenge reaches the challenged's open event stream and a stream opened later; accepted,
both streams say where, and a round is played there; the example bot accepts one."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api import services as api_services
from games.models import Round, RoundPlayer, RoundState, Seat
from social.models import Challenge, ChallengeState
from tests.api.examplebot import example_bot
from tests.api.ndjson import Feed
from tests.support.live import live_stack
from tests.support.played import QUICK_RULES
from tests.support.wsclient import run_async

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

QUICK = {"TABLE_SUMMARY_SECONDS": "3"}
CHALLENGE = {"stake": 10, "preset": "portal", **QUICK_RULES}


@pytest.fixture
def stack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for key, value in QUICK.items():
        monkeypatch.setenv(key, value)
    with live_stack(tmp_path, servers=1) as running:
        yield running


def _token(user: Any, *scopes: str) -> str:
    return api_services.create_token(user, name="test", scopes=scopes).secret


def _client(base: str, token: str) -> httpx.AsyncClient:
    headers = {"Authorization": f"Bearer {token}", "Accept-Language": "en"}
    return httpx.AsyncClient(base_url=base, headers=headers, timeout=20)


async def _play_what_is_dealt(feed: Feed, http: httpx.AsyncClient, table: int) -> int:
    """Submit the cards of the first round dealt at ``table`` as dealt; its id."""
    dealt = await feed.wait_for(lambda f: f["type"] == "round_dealt" and f["table"] == table, 60)
    cards = dealt["cards"]
    reply = await http.post(
        f"/api/rounds/{dealt['round']}/submit",
        json={"chi": [cards[:5], cards[5:10], cards[10:]], "ref": 1, "version": dealt["version"]},
    )
    assert reply.status_code == 200, reply.text
    return int(dealt["round"])


@pytest.mark.timeout(240)
def test_a_challenge_reaches_the_open_stream_and_on_connect_and_accepted_a_round_is_played(
    stack, make_user
) -> None:
    an, binh = make_user("an_live"), make_user("binh_live")
    an_token, binh_token = _token(an, "play", "read"), _token(binh, "play", "read")

    async def scenario() -> tuple[int, int]:
        base = stack.bases[0]
        theirs = await Feed(base, binh_token, "/api/stream/event").open()
        mine = await Feed(base, an_token, "/api/stream/event").open()
        async with _client(base, an_token) as an_http, _client(base, binh_token) as binh_http:
            made = await an_http.post(
                "/api/challenges", json={"username": "binh_live", **CHALLENGE}
            )
            assert made.status_code == 201, made.text
            challenge = made.json()
            seen = await theirs.wait_for(lambda f: f["type"] == "challenge", 10)
            assert (seen["id"], seen["state"], seen["from"]["user"]) == (
                challenge["id"],
                "open",
                an.pk,
            )
            # A stream opened now starts with what is open: the challenge.
            later = await Feed(base, binh_token, "/api/stream/event").open()
            first = await later.wait_for(lambda f: True, 10)
            assert (first["type"], first["id"]) == ("challenge", challenge["id"])
            await later.close()
            accepted = await binh_http.post(f"/api/challenges/{challenge['id']}/accept")
            assert accepted.status_code == 200, accepted.text
            table = accepted.json()["table"]
            for feed in (theirs, mine):
                told = await feed.wait_for(lambda f: f["type"] == "challenge_accepted", 10)
                assert (told["table"], told["version"]) == (table, 2)
            rounds = await asyncio.gather(
                _play_what_is_dealt(mine, an_http, table),
                _play_what_is_dealt(theirs, binh_http, table),
            )
            assert rounds[0] == rounds[1]
            for _ in range(120):
                got = (await an_http.get(f"/api/rounds/{rounds[0]}")).json()
                if got["finished"]:
                    break
                await asyncio.sleep(0.5)
            assert got["state"] == "settled", got
        for feed in (theirs, mine):
            await feed.close()
        return table, rounds[0]

    table, round_id = run_async(scenario())
    round_ = Round.objects.get(pk=round_id)
    assert round_.table_id == table and round_.state == RoundState.SETTLED
    assert set(round_.players.values_list("user_id", flat=True)) == {an.pk, binh.pk}
    assert Challenge.objects.get(table_id=table).state == ChallengeState.ACCEPTED


@pytest.mark.timeout(300)
def test_the_example_bot_accepts_a_challenge_and_plays_at_its_table(stack, make_user) -> None:
    an = make_user("an_thach_bot")
    bot = api_services.upgrade_to_bot(make_user("may_nhan"))
    an_token = _token(an, "play", "read")

    async def challenge_and_play(bot_process: subprocess.Popen[bytes]) -> int:
        base = stack.bases[0]
        mine = await Feed(base, an_token, "/api/stream/event").open()
        async with _client(base, an_token) as http:
            made = await http.post("/api/challenges", json={"username": "may_nhan", **CHALLENGE})
            assert made.status_code == 201, made.text
            told = await mine.wait_for(lambda f: f["type"] == "challenge_accepted", 60)
            await _play_what_is_dealt(mine, http, told["table"])
            while bot_process.poll() is None:  # it stops after its one round
                await asyncio.sleep(0.5)
        await mine.close()
        return int(told["table"])

    log = stack.logs / "bot.log"
    token = _token(bot, "bot:play", "read")
    with example_bot(stack.bases[0], token, log, "--rounds", "1") as process:
        table = run_async(asyncio.wait_for(challenge_and_play(process), 240))
    output = log.read_text()
    assert process.returncode == 0, output + stack.log_tail()
    assert "challenged by" in output, output
    played = RoundPlayer.objects.get(user=bot, round__table_id=table)
    assert played.round.state == RoundState.SETTLED and played.submitted_at is not None
    assert not Seat.objects.filter(user=bot).exists()  # it left cleanly
