"""A tournament round's amounts are chips wherever they are shown: the table's summary
over the websocket, the round history, the round page, the moderators' replay; and they
stay out of the xu statistics of profiles (docs/profiles.md)."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group
from django.db import connections
from django.urls import reverse

from accounts.roles import MODERATORS
from games.consumers import TableConsumer
from games.models import Round
from profiles import selectors as profiles
from profiles import services as profile_stats
from profiles.models import RoundStat
from tests.support.played import play_to_the_end as play_xu_round
from tests.support.wsclient import run_async
from tournaments.models import Entry
from tournaments.sitandgo import services

from .conftest import open_tables, play_round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tournament_table(players: list[Any], small_stacks: Any) -> int:
    t = services.create_sit_and_go(players[0], name="Đơn vị", players=4, buy_in=100)
    for p in players[1:]:
        services.register(p, t.pk)
    return open_tables(t)[0]


def _played_chip_round(table_id: int) -> Round:
    round_ = play_round(table_id)
    assert round_ is not None
    return round_


def _text(html: str) -> str:
    """The words of the page's main part (the header's wallet is in xu, rightly)."""
    html = html[html.index("<main") : html.index("</main>")]
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.usefixtures("own_socket_threads")
def test_a_settled_chip_rounds_summary_over_the_websocket_says_it_was_played_for_chips(
    players: list[Any], tournament_table: int
) -> None:
    async def scenario() -> list[dict[str, Any]]:
        socket = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{tournament_table}/")
        socket.scope["user"] = players[1]
        socket.scope["url_route"] = {"kwargs": {"table_id": tournament_table}}
        accepted, _ = await socket.connect(timeout=10)
        assert accepted
        snapshot = await socket.receive_json_from(timeout=10)
        assert snapshot["info"]["stakes_in"] == "chips"
        with ThreadPoolExecutor(max_workers=1) as thread:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(thread, _played_chip_round, tournament_table)
            await loop.run_in_executor(thread, connections.close_all)
        seen = []
        while not seen or seen[-1]["type"] != "settled":
            seen.append(await socket.receive_json_from(timeout=10))
        await socket.disconnect()
        return seen

    seen = run_async(scenario())
    reveals = [m for m in seen if m["type"] == "reveal"]
    settled = seen[-1]
    assert reveals and all(m["stakes_in"] == "chips" for m in reveals)
    assert settled["stakes_in"] == "chips"
    stacks = dict(Entry.objects.values_list("user_id", "stack"))
    rows = settled["players"]
    assert sum(row["xu"] for row in rows) == 0 and any(row["xu"] for row in rows)
    # The "new balance" of each player is their tournament stack, not their wallet.
    assert {row["user"]: row["balance"] for row in rows} == {
        row["user"]: stacks[row["user"]] for row in rows
    }


def test_the_history_and_the_round_page_show_a_chip_round_in_chips_not_xu(
    client: Any, players: list[Any], tournament_table: int
) -> None:
    round_ = _played_chip_round(tournament_table)
    mine = round_.players.get(user=players[1])
    assert mine.xu
    client.force_login(players[1])
    listing = client.get(reverse("games:history")).content.decode()
    assert 'data-unit="chips"' in listing
    cell = _text(listing)
    amount = f"{'+' if mine.xu > 0 else '−'}{abs(mine.xu)}"
    assert f"{amount} chip" in cell and f"{amount} xu" not in cell
    page = _text(client.get(reverse("games:round_detail", args=[round_.pk])).content.decode())
    assert f"{round_.stake} chip một chi" in page and f"Bạn: {amount} chip" in page
    assert re.findall(r".{40}\bxu\b.{20}", page) == []  # nowhere, not even a wallet section

    players[1].preferred_language = "en"
    players[1].save(update_fields=["preferred_language"])
    listing = _text(client.get(reverse("games:history")).content.decode())
    assert f"{amount} chips" in listing
    page = _text(client.get(reverse("games:round_detail", args=[round_.pk])).content.decode())
    assert f"{round_.stake} chips a chi" in page and f"You: {amount} chips" in page
    assert re.findall(r".{40}\bxu\b.{20}", page) == []


def test_the_moderators_replay_of_a_chip_round_counts_in_chips(
    client: Any, players: list[Any], make_user: Any, tournament_table: int
) -> None:
    round_ = _played_chip_round(tournament_table)
    moderator = make_user("mod")
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS)[0])
    client.force_login(moderator)
    page = client.get(reverse("moderation:replay", args=[round_.pk])).content.decode()
    assert "Kết quả (chip)" in page
    assert f"{round_.stake} chip ·" in _text(page)


def test_chip_rounds_stay_out_of_the_xu_statistics_of_profiles(
    players: list[Any], make_user: Any, tournament_table: int
) -> None:
    _played_chip_round(tournament_table)
    assert profile_stats.record_settled_rounds() == 0
    assert not RoundStat.objects.exists()
    assert profiles.figures(players[1]).rounds == 0
    # An ordinary round after it is recorded as ever.
    from games import services as games

    others = [make_user("em"), make_user("giang")]
    xu_round = play_xu_round(others, games.create_table(others[0], name="Xu", stake=10))
    assert profile_stats.record_settled_rounds() == 1
    assert set(RoundStat.objects.values_list("round_id", flat=True)) == {xu_round.pk}


def test_a_chip_round_cannot_be_settled_again_in_xu_and_shows_nothing_to_correct(
    players: list[Any], make_user: Any, tournament_table: int
) -> None:
    """Its result moved chips, never xu: a re-settlement through the ledger would pay xu no
    wallet staked. The service refuses it, moves nothing, and the replay offers nothing."""
    from ledger.models import Transfer
    from moderation import selectors as moderation_selectors
    from moderation import services as moderation
    from moderation.errors import ModerationError

    round_ = _played_chip_round(tournament_table)
    moderator = make_user("mod")
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS)[0])
    transfers = Transfer.objects.count()
    with pytest.raises(ModerationError) as refused:
        moderation.resettle(moderator, round_.pk, reason="Kiểm tra lại")
    assert refused.value.code == "not_xu"
    assert Transfer.objects.count() == transfers
    assert moderation_selectors.settle_again(Round.objects.get(pk=round_.pk)) == []
