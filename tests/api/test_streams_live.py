"""The API's streams and the example bot on the real stack: daphne, a Celery worker with
beat (the site's bots, the timers), PostgreSQL and Redis, as in production."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.core.management import call_command

from api import services as api_services
from games.models import Round, RoundPlayer, RoundState, Seat, Table
from tests.api.examplebot import example_bot, signals_of
from tests.api.ndjson import Feed
from tests.support.live import live_stack
from tests.support.played import quick_table
from tests.support.wsclient import card_strings, run_async

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

QUICK = {
    # Short rounds: the site's bots think briefly, the summary shows 3 s.
    "BOTS_THINK_SECONDS": "0.2,0.6",
    "TABLE_SUMMARY_SECONDS": "3",
}


@pytest.fixture
def stack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for key, value in {**QUICK, "API_STREAMS_PER_TOKEN": "2"}.items():
        monkeypatch.setenv(key, value)  # site_env passes the environment on to the servers
    # Per test, and stopped before the database is flushed (tests/bots/test_live_bots.py).
    with live_stack(tmp_path, servers=1) as running:
        yield running


@pytest.fixture
def host(make_user):  # type: ignore[no-untyped-def]
    return make_user("chu_ban", display_name="Chủ bàn")


@pytest.fixture
def bot_table(host) -> Table:  # type: ignore[no-untyped-def]
    """A table that lets bots in, nobody seated: the site's bots come once someone sits."""
    return quick_table(host, "Bàn cho bot", allow_bots=True, bot_wait_seconds=1)


@pytest.fixture
def bot_account(make_user):  # type: ignore[no-untyped-def]
    return api_services.upgrade_to_bot(make_user("may_cua_toi", display_name="Máy của tôi"))


def _token(user: Any, *scopes: str) -> str:
    return api_services.create_token(user, name="test", scopes=scopes).secret


def _client(base: str, token: str) -> httpx.AsyncClient:
    headers = {"Authorization": f"Bearer {token}", "Accept-Language": "en"}
    return httpx.AsyncClient(base_url=base, headers=headers, timeout=20)


BOT_SECONDS = 420
"""Five rounds of about 20 s each, on a loaded machine."""


@pytest.mark.timeout(BOT_SECONDS + 180)
def test_the_example_bot_plays_five_rounds_against_the_sites_bots_from_a_token_alone(
    stack, bot_table, bot_account
):
    token = _token(bot_account, "bot:play", "read")
    log = stack.logs / "bot.log"
    with example_bot(stack.bases[0], token, log, "--rounds", "5") as bot:
        try:
            returncode = bot.wait(timeout=BOT_SECONDS)
        except subprocess.TimeoutExpired:
            bot.kill()
            returncode = bot.wait()
    output = log.read_text()
    assert returncode == 0, output + stack.log_tail()
    played = RoundPlayer.objects.filter(
        user=bot_account, round__state=RoundState.SETTLED
    ).select_related("round")
    assert played.count() >= 5, output
    for player in played:
        assert player.submitted_at is not None and not player.auto_arranged, output
        others = player.round.players.exclude(user=bot_account).select_related("user")
        assert others.exists() and all(p.user.is_bot for p in others)
    assert "left table" in output  # it stopped cleanly: out of its seat
    assert not Seat.objects.filter(user=bot_account).exists()
    call_command("ledger_check")

    # Ctrl-C: started again, seated, interrupted: it leaves its table and exits cleanly.
    log = stack.logs / "bot-interrupted.log"
    with example_bot(stack.bases[0], token, log) as bot:
        deadline = time.monotonic() + 60
        while "seated at table" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        before = signals_of(bot.pid)
        bot.send_signal(signal.SIGINT)
        try:
            returncode = bot.wait(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"SIGINT not acted on ({before}):\n{log.read_text()}") from None
    output = log.read_text()
    assert returncode == 0, output
    assert "Ctrl-C" in output and "left table" in output, output
    assert not Seat.objects.filter(user=bot_account).exists()


def test_the_table_stream_never_carries_another_players_cards_before_the_showdown(
    stack, bot_table, bot_account
):
    token = _token(bot_account, "bot:play")

    async def play() -> Feed:
        base = stack.bases[0]
        feed = await Feed(base, token, f"/api/tables/{bot_table.pk}/stream").open()
        assert feed.status == 200
        assert feed.response_headers is not None
        assert feed.response_headers["content-type"] == "application/x-ndjson"
        snapshot = await feed.wait_for(lambda f: True)
        assert snapshot["type"] == "snapshot" and snapshot["table"] == bot_table.pk
        async with _client(base, token) as http:
            sat = await http.post(f"/api/tables/{bot_table.pk}/sit", json={})
            assert sat.status_code == 200, sat.text
            seen = 0
            for _ in range(2):
                cards = await feed.wait_for(lambda f: f["type"] == "cards", 40, seen)
                chi = [cards["cards"][:5], cards["cards"][5:10], cards["cards"][10:]]
                reply = await http.post(
                    f"/api/rounds/{cards['round']}/submit", json={"chi": chi, "ref": 1}
                )
                assert reply.status_code == 200, reply.text
                settled = await feed.wait_for(lambda f: f["type"] == "settled", 60, seen)
                seen = feed.frames.index(settled) + 1
            await http.post(f"/api/tables/{bot_table.pk}/leave")
        await feed.close()
        return feed

    feed = run_async(play())
    # Every frame, one by one: before a round's showdown the stream carried no card but
    # this player's own, in the snapshot as in every event.
    mine: set[str] = set()
    showdown = False
    checked = 0
    for frame in feed.frames:
        if frame["type"] == "round_started":
            mine, showdown = set(), False
        elif frame["type"] == "cards":
            mine = set(frame["cards"])
        elif frame["type"] == "reveal":
            showdown = True
        if not showdown:
            assert card_strings(frame) <= mine, frame
            checked += 1
    assert checked > 10
    versions = [f["version"] for f in feed.frames if f["type"] not in {"cards", "submission"}]
    public = [v for v in versions[1:] if v is not None]
    assert public == sorted(public)  # the socket's order
    assert Round.objects.filter(table=bot_table, state=RoundState.SETTLED).count() >= 2


def test_a_revoked_token_ends_its_open_streams_at_once(stack, bot_table, bot_account):
    token = _token(bot_account, "bot:play", "read")
    row = bot_account.api_tokens.get()

    async def scenario() -> tuple[float, int]:
        base = stack.bases[0]
        events = await Feed(base, token, "/api/stream/event").open()
        table = await Feed(base, token, f"/api/tables/{bot_table.pk}/stream").open()
        assert (events.status, table.status) == (200, 200)
        await table.wait_for(lambda f: f["type"] == "snapshot")
        await asyncio.sleep(1)
        revoked = time.monotonic()
        await asyncio.to_thread(api_services.revoke_token, bot_account, row.pk)
        for feed in (events, table):
            await asyncio.wait_for(feed.ended.wait(), 5)
            assert feed.frames[-1] == {"type": "end", "reason": "revoked"}
        took = time.monotonic() - revoked
        async with _client(base, token) as http:
            after = await http.get("/api/account")
        return took, after.status_code

    took, status = run_async(scenario())
    assert took < 3  # within the check period (1 s) and a loaded machine's slack
    assert status == 401


def test_a_stream_over_the_limit_is_refused_with_429_and_its_place_comes_back_on_close(
    stack, bot_account
):
    token = _token(bot_account, "read")

    async def scenario() -> None:
        base = stack.bases[0]
        first = await Feed(base, token, "/api/stream/event").open()
        second = await Feed(base, token, "/api/stream/event").open()
        assert (first.status, second.status) == (200, 200)
        third = await Feed(base, token, "/api/stream/event").open()
        assert third.status == 429
        assert third.response_headers is not None
        assert int(third.response_headers["retry-after"]) >= 1
        assert third.body["error"]["code"] == "too_many_streams"
        # Still open, both: a refused stream never drops one already open.
        assert not first.ended.is_set() and not second.ended.is_set()
        await first.close()  # the client goes away: its lease is released
        deadline = time.monotonic() + 10
        while True:
            again = await Feed(base, token, "/api/stream/event").open()
            if again.status == 200 or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.5)
        assert again.status == 200
        for feed in (second, again):
            await feed.close()

    run_async(scenario())
