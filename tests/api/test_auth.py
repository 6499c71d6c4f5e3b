from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from api import services
from api.auth import authenticate_bearer, grant_still_valid
from api.models import PersonalToken
from games import services as game_services

pytestmark = pytest.mark.django_db


def test_a_personal_token_is_stored_only_as_its_digest(make_user, token_for) -> None:
    user = make_user()
    secret = token_for(user, "read")
    row = PersonalToken.objects.get(user=user)
    assert secret not in (row.digest, row.prefix)
    assert secret.startswith(row.prefix)
    grant = authenticate_bearer(f"Bearer {secret}")
    assert grant is not None
    assert grant.user == user
    assert grant.scopes == frozenset({"read"})
    assert grant.has("read") and not grant.has("play")


def test_an_unknown_or_malformed_header_authenticates_nobody(make_user, token_for) -> None:
    secret = token_for(make_user(), "read")
    for header in ("", "Bearer", f"Basic {secret}", "Bearer mbp_nope", f"Bearer {secret}x"):
        assert authenticate_bearer(header) is None


def test_a_revoked_token_stops_working_at_once(make_user, token_for, api_client) -> None:
    user = make_user()
    secret = token_for(user, "read")
    client = api_client(secret)
    assert client.get("/account").status_code == 200
    grant = authenticate_bearer(f"Bearer {secret}")
    assert grant is not None and grant_still_valid(grant.token_id)

    services.revoke_token(user, PersonalToken.objects.get(user=user).pk)

    response = client.get("/account")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthenticated"
    assert authenticate_bearer(f"Bearer {secret}") is None
    assert not grant_still_valid(grant.token_id)


def test_an_expired_token_works_no_more(make_user) -> None:
    user = make_user()
    new = services.create_token(
        user, name="t", scopes=["read"], expires_at=timezone.now() + timedelta(hours=1)
    )
    assert authenticate_bearer(f"Bearer {new.secret}") is not None
    PersonalToken.objects.filter(pk=new.row.pk).update(expires_at=timezone.now())
    assert authenticate_bearer(f"Bearer {new.secret}") is None
    assert not grant_still_valid(f"pat:{new.row.pk}")


def test_a_deactivated_account_s_token_works_no_more(make_user, token_for) -> None:
    user = make_user()
    secret = token_for(user, "read")
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert authenticate_bearer(f"Bearer {secret}") is None


def test_the_api_token_command_prints_the_token_alone_on_the_last_line(make_user, capsys) -> None:
    user = make_user("operator")
    call_command("api_token", "operator", "--scope", "read", "--scope", "play")
    last = capsys.readouterr().out.strip().splitlines()[-1]
    grant = authenticate_bearer(f"Bearer {last}")
    assert grant is not None and grant.user == user
    assert grant.scopes == frozenset({"read", "play"})


def test_account_me_answers_who_the_token_speaks_for(make_user, token_for, api_client) -> None:
    user = make_user("an")
    body = api_client(token_for(user, "read")).get("/account").json()
    assert body["username"] == "an"
    assert body["balance"] == 10_000
    assert body["is_bot"] is False
    assert body["scopes"] == ["read"]


def test_account_me_names_the_table_of_the_round_you_are_dealt_in(
    players, table, token_for, api_client
) -> None:
    game_services.sit(players[0], table.pk)
    game_services.sit(players[1], table.pk)
    round_ = game_services.start_round(players[0], table.pk)
    body = api_client(token_for(players[1], "read")).get("/account").json()
    assert body["seat"]["table"] == table.pk
    assert body["round"]["id"] == round_.pk and body["round"]["table"] == table.pk
    assert body["round"]["state"] == "arranging" and body["round"]["submitted"] is False


def test_no_token_is_401_with_the_error_shape_in_the_requested_language(api_client) -> None:
    english = api_client(None, "en").get("/account")
    vietnamese = api_client(None, "vi").get("/account")
    assert english.status_code == vietnamese.status_code == 401
    assert english["WWW-Authenticate"] == "Bearer"
    assert english.json()["error"]["code"] == vietnamese.json()["error"]["code"]
    assert english.json()["error"]["message"] != vietnamese.json()["error"]["message"]
