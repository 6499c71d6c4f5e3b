"""challenge_create, challenge_accept, challenge_decline, challenge_cancel: the social
services through the API, each refusal with its code in the request's language."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from api import services as api_services
from games.models import Seat, Table
from social import services as social_services
from social.models import Challenge

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(make_user):  # type: ignore[no-untyped-def]
    return make_user("an_thach", display_name="An"), make_user("binh_nhan", display_name="Bình")


def test_a_challenge_made_and_accepted_seats_both_at_one_table(two, token_for, api_client) -> None:
    an, binh = two
    made = api_client(token_for(an, "play")).post(
        "/challenges", {"username": "binh_nhan", "stake": 10, "preset": "classic"}
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["type"], body["state"], body["version"]) == ("challenge", "open", 1)
    assert body["from"]["user"] == an.pk and body["to"]["user"] == binh.pk
    accepted = api_client(token_for(binh, "play")).post(f"/challenges/{body['id']}/accept")
    assert accepted.status_code == 200, accepted.content
    answer = accepted.json()
    assert (answer["type"], answer["state"], answer["version"]) == (
        "challenge_accepted",
        "accepted",
        2,
    )
    table = Table.objects.get(pk=answer["table"])
    assert (table.preset, table.stake, table.seats, table.is_private) == ("classic", 10, 2, True)
    assert set(Seat.objects.filter(table=table).values_list("user_id", flat=True)) == {
        an.pk,
        binh.pk,
    }
    again = api_client(token_for(binh, "play")).post(f"/challenges/{body['id']}/accept")
    assert again.status_code == 200 and again.json()["table"] == table.pk  # idempotent


def test_a_challenge_refuses_what_the_create_table_form_refuses(two, token_for, api_client) -> None:
    an, _binh = two
    client = api_client(token_for(an, "play"))
    response = client.post(
        "/challenges", {"username": "binh_nhan", "stake": 10, "arrange_seconds": 5}
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid" and error["message"].startswith("arrange_seconds")
    assert not Challenge.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [("vi", "Bạn không thể thách đấu chính mình."), ("en", "You cannot challenge yourself.")],
)
def test_challenging_yourself_is_refused_in_your_language(
    two, token_for, api_client, language, words
) -> None:
    an, _binh = two
    response = api_client(token_for(an, "play"), language).post(
        "/challenges", {"username": "an_thach", "stake": 10}
    )
    assert response.status_code == 400
    assert response.json()["error"] == {"code": "challenge_self", "message": words}


def test_a_blocked_player_cannot_challenge_and_is_not_told_why(two, token_for, api_client) -> None:
    an, binh = two
    social_services.block_user(binh, an)
    response = api_client(token_for(an, "play")).post(
        "/challenges", {"username": "binh_nhan", "stake": 10}
    )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "challenge_refused"
    assert "block" not in response.json()["error"]["message"].lower()
    back = api_client(token_for(binh, "play")).post(
        "/challenges", {"username": "an_thach", "stake": 10}
    )
    assert back.status_code == 403 and back.json()["error"]["code"] == "you_blocked"


def test_a_stake_beyond_the_balance_and_an_unknown_player_are_refused(
    two, token_for, api_client
) -> None:
    client = api_client(token_for(two[0], "play"))
    dear = client.post("/challenges", {"username": "binh_nhan", "stake": 100_000})
    assert dear.status_code == 409 and dear.json()["error"]["code"] == "balance_too_low"
    nobody = client.post("/challenges", {"username": "khong_co_ai", "stake": 10})
    assert nobody.status_code == 404 and nobody.json()["error"]["code"] == "not_found"


def test_declined_cancelled_and_expired_challenges_answer_with_their_codes(
    two, token_for, api_client
) -> None:
    an, binh = two
    mine, theirs = api_client(token_for(an, "play")), api_client(token_for(binh, "play"))

    def new() -> int:
        return int(mine.post("/challenges", {"username": "binh_nhan", "stake": 10}).json()["id"])

    declined = new()
    assert theirs.post(f"/challenges/{declined}/decline").json()["state"] == "declined"
    late = theirs.post(f"/challenges/{declined}/accept")
    assert late.status_code == 409 and late.json()["error"]["code"] == "already_answered"
    cancelled = new()
    assert theirs.post(f"/challenges/{cancelled}/cancel").status_code == 404  # not theirs
    assert mine.post(f"/challenges/{cancelled}/cancel").json()["state"] == "cancelled"
    assert mine.post(f"/challenges/{cancelled}/cancel").json()["version"] == 2  # twice: once
    expired = new()
    Challenge.objects.filter(pk=expired).update(expires_at=timezone.now() - timedelta(seconds=1))
    gone = theirs.post(f"/challenges/{expired}/accept")
    assert gone.status_code == 409 and gone.json()["error"]["code"] == "challenge_expired"
    assert theirs.post("/challenges/0/accept").status_code == 404


def test_a_token_without_play_cannot_challenge(two, token_for, api_client) -> None:
    response = api_client(token_for(two[0], "read")).post(
        "/challenges", {"username": "binh_nhan", "stake": 10}
    )
    assert response.status_code == 403 and response.json()["error"]["code"] == "missing_scope"
    assert not Challenge.objects.exists()


def test_a_bot_account_challenges_with_bot_play_and_its_table_lets_bots_in(
    two, make_user, token_for, api_client
) -> None:
    bot = api_services.upgrade_to_bot(make_user("may_thach"))
    made = api_client(token_for(bot, "bot:play")).post(
        "/challenges", {"username": "binh_nhan", "stake": 10}
    )
    assert made.status_code == 201, made.content
    accepted = api_client(token_for(two[1], "play")).post(f"/challenges/{made.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.content
    assert Table.objects.get(pk=accepted.json()["table"]).allow_bots
