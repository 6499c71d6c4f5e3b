"""round_get's ``view`` and tournament_standings are typed in the schema (``RoundView``,
``TournamentState``), and the typed answers drop nothing the socket's payloads carry."""

from __future__ import annotations

import json
from typing import Any

import pytest

from api.root import api
from games import selectors as game_selectors
from games import services as game_services
from games.models import Round
from tests.support.arenas import present
from tests.support.arranging import naive_arrangement
from tests.support.played import deal_for_two, run_timers
from tournaments import selectors as tournament_selectors
from tournaments.arena import services as arena
from tournaments.sitandgo import services as sitandgo

pytestmark = pytest.mark.django_db


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _keeps(answer: Any, payload: Any, where: str = "") -> None:
    """Every field of the payload is in the answer, with the same value, at every depth
    (the answer may add a null for an optional field the payload leaves out)."""
    if isinstance(payload, dict):
        assert isinstance(answer, dict), where
        for key, value in payload.items():
            assert key in answer, f"{where}.{key}"
            _keeps(answer[key], value, f"{where}.{key}")
    elif isinstance(payload, list):
        assert isinstance(answer, list) and len(answer) == len(payload), where
        for index, (got, value) in enumerate(zip(answer, payload, strict=True)):
            _keeps(got, value, f"{where}[{index}]")
    else:
        assert answer == payload, where


def test_the_schema_types_round_get_s_view_and_the_tournament_standings() -> None:
    document = json.loads(json.dumps(api.get_openapi_schema(path_prefix="/api/")))
    schemas = document["components"]["schemas"]
    assert schemas["RoundFull"]["properties"]["view"] == {"$ref": "#/components/schemas/RoundView"}
    view = schemas["RoundView"]["properties"]
    assert {"you", "players", "reveal", "summary", "voided"} <= set(view)
    standings = document["paths"]["/api/tournaments/{tournament_id}"]["get"]["responses"]["200"]
    assert standings["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/TournamentState"
    }
    assert schemas["TournamentState"]["properties"]["standings"]["items"] == {
        "$ref": "#/components/schemas/Standing"
    }


def test_round_get_s_view_is_the_socket_s_round_view_while_arranging_and_once_settled(
    players, table, token_for, api_client
) -> None:
    round_ = deal_for_two(players, table)
    client = api_client(token_for(players[0], "read"))
    arranging = client.get(f"/rounds/{round_.pk}").json()["view"]
    _keeps(arranging, _plain(game_selectors.round_view(round_, players[0])))
    assert arranging["you"]["cards"] and arranging["reveal"] is None
    for rp in round_.players.select_related("user"):
        game_services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    round_ = run_timers(round_)
    settled = client.get(f"/rounds/{round_.pk}").json()["view"]
    _keeps(settled, _plain(game_selectors.round_view(Round.objects.get(pk=round_.pk), players[0])))
    assert settled["summary"]["players"] and settled["reveal"]["chi"]


def test_tournament_standings_answer_the_socket_s_state_for_a_sit_and_go_and_an_arena(
    players, make_user, token_for, api_client
) -> None:
    client = api_client(token_for(players[0], "read"))
    sng = sitandgo.create_sit_and_go(players[0], name="Giải nhỏ", players=4, buy_in=100)
    for player in players[1:]:
        sitandgo.register(player, sng.pk)  # full: it starts, its table opens
    more = [make_user(f"arena{n}") for n in range(2)]
    ring = arena.create_arena(more[0], name="Đấu trường", minutes=3, buy_in=100)
    arena.join(more[1], ring.pk)
    present(ring, *more)
    arena.start_now(more[0], ring.pk)
    for tournament in (sng, ring):
        response = client.get(f"/tournaments/{tournament.pk}")
        assert response.status_code == 200
        answer = response.json()
        state = tournament_selectors.tournament_state(tournament.pk)
        state.pop("now")
        _keeps(answer, _plain(state))
        assert answer["standings"] and answer["kind"] == tournament.kind
    assert answer["arena"] is True and answer["standings"][0]["points"] is not None
