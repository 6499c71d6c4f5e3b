"""What a token may do is what its scopes say: anything else is a 403 that changes nothing."""

from __future__ import annotations

import pytest

from api import services
from api.models import Scope
from games.models import RoundPlayer, Seat, Table
from tests.support.arranging import naive_arrangement
from tests.support.played import deal_for_two

pytestmark = pytest.mark.django_db


def test_a_token_without_play_is_refused_with_403_and_nothing_changes(
    players, table, token_for, api_client
) -> None:
    reader = api_client(token_for(players[1], "read", "export", "tournament"))
    version = Table.objects.get(pk=table.pk).version

    response = reader.post(f"/tables/{table.pk}/sit", {})

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "missing_scope"
    assert not Seat.objects.filter(user=players[1]).exists()
    assert Table.objects.get(pk=table.pk).version == version
    created = reader.post("/tables", {"name": "Bàn của đọc", "stake": 10})
    assert created.status_code == 403
    assert not Table.objects.filter(host=players[1]).exists()


def test_a_token_without_play_cannot_submit_and_the_hand_stays_unsubmitted(
    players, table, token_for, api_client
) -> None:
    round_ = deal_for_two(players, table)
    mine = RoundPlayer.objects.get(round=round_, user=players[1])
    version = Table.objects.get(pk=table.pk).version

    response = api_client(token_for(players[1], "read")).post(
        f"/rounds/{round_.pk}/submit", {"chi": naive_arrangement(mine.cards)}
    )

    assert response.status_code == 403
    mine.refresh_from_db()
    assert mine.arrangement is None and mine.submitted_at is None and mine.draft is None
    assert Table.objects.get(pk=table.pk).version == version


def test_bot_play_lets_a_bot_account_play_but_not_a_person(
    make_user, token_for, api_client
) -> None:
    person, bot = make_user("nguoi"), make_user("may")
    bot.is_api_bot = True
    bot.save(update_fields=["is_api_bot"])
    body = {"name": "Bàn", "stake": 10, "allow_bots": True, "sit_down": False}
    assert api_client(token_for(person, Scope.BOT_PLAY)).post("/tables", body).status_code == 403
    assert api_client(token_for(bot, Scope.BOT_PLAY)).post("/tables", body).status_code == 201


def test_export_needs_the_export_scope(make_user, token_for, api_client) -> None:
    user = make_user()
    assert api_client(token_for(user, "read")).get("/rounds/export").status_code == 403
    response = api_client(token_for(user, "export")).get("/rounds/export")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"


def test_an_oauth_access_token_authenticates_with_its_scopes(make_user, api_client) -> None:
    from datetime import timedelta

    from django.utils import timezone
    from oauth2_provider.models import AccessToken

    user = make_user("oauth")
    AccessToken.objects.create(
        user=user,
        token="oauth-token-xyz",
        scope="read",
        expires=timezone.now() + timedelta(hours=1),
    )
    client = api_client("oauth-token-xyz")
    assert client.get("/account").json()["scopes"] == ["read"]
    assert client.post("/tables", {"name": "x", "stake": 10}).status_code == 403
    AccessToken.objects.filter(user=user).delete()  # revoked through DOT: the row goes
    assert client.get("/account").status_code == 401


def test_scopes_outside_the_list_are_refused_when_creating_a_token(make_user) -> None:
    from api.errors import ApiError

    with pytest.raises(ApiError):
        services.create_token(make_user(), name="x", scopes=["admin"])
