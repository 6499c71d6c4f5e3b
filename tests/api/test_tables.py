"""tables_list filters as the lobby does; tables_create refuses what the lobby's form
refuses; sit and leave as the socket's."""

from __future__ import annotations

import pytest

from games import services as game_services
from games.models import Seat, Table

pytestmark = pytest.mark.django_db


def test_tables_list_filters_by_stake_preset_free_seats_and_bots(
    players, token_for, api_client
) -> None:
    cheap = game_services.create_table(players[0], name="Rẻ", stake=10, seats=2)
    dear = game_services.create_table(players[1], name="Đắt", stake=500, allow_bots=True)
    classic = game_services.create_table(players[2], name="Cổ", stake=50, preset="classic")
    game_services.sit(players[0], cheap.pk)
    game_services.sit(players[3], cheap.pk)
    client = api_client(token_for(players[0], "read"))

    def ids(**query: object) -> list[int]:
        body = client.get("/tables", **query).json()
        return [row["id"] for row in body["tables"]]

    assert ids() == [cheap.pk, classic.pk, dear.pk]
    assert ids(min_stake=20, max_stake=100) == [classic.pk]
    assert ids(preset="classic") == [classic.pk]
    assert ids(free="true") == [classic.pk, dear.pk]
    assert ids(bots="true") == [dear.pk]


def test_tables_create_refuses_what_the_lobby_form_refuses(
    make_user, token_for, api_client
) -> None:
    user = make_user()
    client = api_client(token_for(user, "play"))
    response = client.post("/tables", {"name": "Bàn", "stake": 10, "arrange_seconds": 5})
    assert response.status_code == 400
    body = response.json()["error"]
    assert body["code"] == "invalid" and body["message"].startswith("arrange_seconds")
    assert not Table.objects.filter(host=user).exists()


def test_tables_create_opens_a_table_with_house_rules_and_seats_its_creator(
    make_user, token_for, api_client
) -> None:
    user = make_user()
    response = api_client(token_for(user, "play")).post(
        "/tables", {"name": "Bàn nhà", "stake": 20, "seats": 3, "arrange_seconds": 45}
    )
    assert response.status_code == 201
    body = response.json()
    table = Table.objects.get(pk=body["table"])
    assert (table.stake, table.seats, table.rules.arrange_seconds) == (20, 3, 45)
    assert body["seated"] is True and Seat.objects.filter(user=user, table=table).exists()
    assert body["row"]["id"] == table.pk and body["row"]["stake"] == 20


def test_tables_create_and_table_sit_answer_with_the_same_seating(
    make_user, token_for, api_client
) -> None:
    host, guest = make_user(), make_user()
    created = api_client(token_for(host, "play")).post("/tables", {"name": "Bàn", "stake": 10})
    seated = api_client(token_for(guest, "play")).post(f"/tables/{created.json()['table']}/sit")
    mine, theirs = created.json(), seated.json()
    assert isinstance(mine["table"], int) and mine["table"] == theirs["table"]
    assert (mine["seated"], mine["position"]) == (True, 0)
    assert (theirs["seated"], theirs["position"]) == (True, 1)
    assert set(theirs) == {"table", "seated", "position"} == set(mine) - {"row"}


def test_tables_create_without_sitting_down_says_so(make_user, token_for, api_client) -> None:
    response = api_client(token_for(make_user(), "play")).post(
        "/tables", {"name": "Bàn trống", "stake": 10, "sit_down": False}
    )
    body = response.json()
    assert response.status_code == 201
    assert (body["seated"], body["position"]) == (False, None)


def test_table_sit_takes_the_first_free_seat_without_a_body(
    players, table, token_for, api_client
) -> None:
    game_services.sit(players[0], table.pk)
    client = api_client(token_for(players[1], "play"))
    # No body at all, as `curl -X POST …/sit` sends it.
    response = client.client.generic("POST", f"/api/tables/{table.pk}/sit", b"", **client.headers)
    assert response.status_code == 200, response.content
    assert response.json() == {"table": table.pk, "seated": True, "position": 1}
    assert Seat.objects.get(user=players[1]).position == 1


def test_table_sit_takes_the_position_asked_for(players, table, token_for, api_client) -> None:
    response = api_client(token_for(players[1], "play")).post(
        f"/tables/{table.pk}/sit", {"position": 2}
    )
    assert response.json() == {"table": table.pk, "seated": True, "position": 2}


def test_the_schema_says_table_sit_s_body_is_optional() -> None:
    from api.root import api

    operation = api.get_openapi_schema(path_prefix="/api/")["paths"]["/api/tables/{table_id}/sit"][
        "post"
    ]
    assert operation["requestBody"].get("required", False) is False


def test_sitting_twice_sits_once_and_leaving_a_table_you_are_not_at_is_refused(
    players, table, token_for, api_client
) -> None:
    client = api_client(token_for(players[1], "play"))
    first = client.post(f"/tables/{table.pk}/sit", {})
    again = client.post(f"/tables/{table.pk}/sit", {})
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    other = game_services.create_table(players[2], name="Khác", stake=10)
    refused = client.post(f"/tables/{other.pk}/leave")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_seated"
    assert client.post(f"/tables/{table.pk}/leave").status_code == 200
    assert not Seat.objects.filter(user=players[1]).exists()


def test_a_table_beyond_a_bigint_is_not_found(make_user, token_for, api_client) -> None:
    client = api_client(token_for(make_user(), "play"))
    response = client.post(f"/tables/{2**63}/sit", {})
    assert response.status_code == 404
