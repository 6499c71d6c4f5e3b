"""Bot accounts: an upgrade of an account that never played, for good; labelled a bot,
seated only where bots are allowed, capped per day, never rated."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import selectors as game_selectors
from games import services as game_services
from games.models import Seat
from tests.games.played import play_to_the_end

pytestmark = pytest.mark.django_db


def _bot_table(host):  # type: ignore[no-untyped-def]
    return game_services.create_table(host, name="Bàn bot", stake=10, allow_bots=True)


def test_bot_upgrade_is_refused_for_an_account_that_has_played(
    players, table, token_for, api_client
) -> None:
    play_to_the_end(players, table)
    response = api_client(token_for(players[1], "bot:play")).post("/bot/account/upgrade")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "has_played"
    assert not User.objects.get(pk=players[1].pk).is_api_bot


def test_bot_upgrade_of_a_new_account_is_irreversible(make_user, token_for, api_client) -> None:
    user = make_user("robot")
    client = api_client(token_for(user, "bot:play", "read"))

    first = client.post("/bot/account/upgrade")

    assert first.status_code == 200 and first.json()["is_bot"] is True
    assert client.get("/account").json()["is_bot"] is True
    assert client.post("/bot/account/upgrade").status_code == 200  # still a bot
    user.refresh_from_db()
    assert user.is_api_bot and not user.is_bot
    # No operation undoes it, and the admin cannot edit the flag.
    assert User._meta.get_field("is_api_bot").editable is False


def test_bot_upgrade_needs_bot_play(make_user, token_for, api_client) -> None:
    user = make_user()
    response = api_client(token_for(user, "play", "read")).post("/bot/account/upgrade")
    assert response.status_code == 403
    assert not User.objects.get(pk=user.pk).is_api_bot


def test_a_bot_account_sits_only_where_the_host_allows_bots_and_is_labelled(
    players, table, make_user, token_for, api_client
) -> None:
    bot = make_user("robot")
    client = api_client(token_for(bot, "bot:play", "read"))
    assert client.post("/bot/account/upgrade").status_code == 200

    refused = client.post(f"/tables/{table.pk}/sit", {})
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "bots_not_allowed"
    friendly = _bot_table(players[0])
    assert client.post(f"/tables/{friendly.pk}/sit", {}).status_code == 200

    seat = Seat.objects.select_related("user", "table").get(user=bot)
    assert game_selectors.seat_view(seat)["is_bot"] is True
    snapshot = game_selectors.table_snapshot(friendly, players[0])
    assert [s["is_bot"] for s in snapshot["seats"] if s["user"] == bot.pk] == [True]


def test_a_round_with_a_bot_account_is_not_rated(players, make_user) -> None:
    bot = make_user("robot")
    User.objects.filter(pk=bot.pk).update(is_api_bot=True)
    bot.refresh_from_db()
    round_ = play_to_the_end([players[0], bot], _bot_table(players[0]))
    assert round_.ratings["rated"] is False


def test_a_bot_account_past_its_daily_rounds_cannot_sit(
    players, make_user, token_for, api_client, settings
) -> None:
    settings.API_BOT_ROUNDS_PER_DAY = 1
    bot = make_user("robot")
    User.objects.filter(pk=bot.pk).update(is_api_bot=True)
    bot.refresh_from_db()
    play_to_the_end([players[0], bot], _bot_table(players[0]))
    game_services.stand(bot)
    response = api_client(token_for(bot, "bot:play")).post(
        f"/tables/{_bot_table(players[1]).pk}/sit", {}
    )
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "bot_round_cap"
