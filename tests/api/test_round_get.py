"""round_get shows a round as the table would: your cards only until the showdown; once
settled, every hand, result, transfer and seed."""

from __future__ import annotations

import json

import pytest

from games import services as game_services
from games.models import RoundPlayer
from games.rules.fair import commitment
from tests.support.arranging import naive_arrangement
from tests.support.played import deal_for_two, run_timers

pytestmark = pytest.mark.django_db


def _quoted(cards: list[str]) -> list[str]:
    return [json.dumps(card) for card in cards]


def test_round_get_never_shows_other_players_cards_before_the_showdown(
    players, table, token_for, api_client
) -> None:
    round_ = deal_for_two(players, table)
    mine = RoundPlayer.objects.get(round=round_, user=players[0])
    theirs = RoundPlayer.objects.get(round=round_, user=players[1])
    client = api_client(token_for(players[0], "read", "play"))

    def text() -> str:
        response = client.get(f"/rounds/{round_.pk}")
        assert response.status_code == 200
        return response.content.decode()

    arranging = text()
    assert all(card not in arranging for card in _quoted(theirs.cards))
    body = json.loads(arranging)
    assert body["view"]["you"]["cards"] == mine.cards
    assert body["seeds"]["server_seed"] == ""
    # Their submission is not shown either, nor a draft of ours to them.
    game_services.submit_arrangement(players[1], round_.pk, naive_arrangement(theirs.cards))
    game_services.save_draft(players[0], round_.pk, naive_arrangement(mine.cards))
    submitted = text()
    assert all(card not in submitted for card in _quoted(theirs.cards))
    theirs_view = api_client(token_for(players[1], "read")).get(f"/rounds/{round_.pk}").content
    assert all(card not in theirs_view.decode() for card in _quoted(mine.cards))


def test_round_get_of_a_settled_round_has_every_hand_result_transfer_and_seed(
    players, table, token_for, api_client
) -> None:
    round_ = deal_for_two(players, table)
    for rp in round_.players.select_related("user"):
        game_services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    round_ = run_timers(round_)

    body = api_client(token_for(players[0], "read")).get(f"/rounds/{round_.pk}").json()

    assert body["state"] == "settled" and body["finished"] is True
    assert [p["cards"] for p in body["players"]] == [
        rp.cards for rp in round_.players.order_by("position")
    ]
    assert all(p["arrangement"] is not None for p in body["players"])
    assert body["pairs"] and len(body["pairs"][0]["chi_detail"]) == 3
    assert sum(p["xu"] for p in body["players"]) <= 0  # nothing made out of thin air
    assert {t["kind"] for t in body["transfers"]} >= {"hold"}
    assert body["postings"] and all("balance_after" in p for p in body["postings"])
    seeds = body["seeds"]
    assert seeds["server_seed"] and commitment(seeds["server_seed"]) == seeds["commitment"]


def test_a_round_someone_else_is_playing_does_not_exist_for_you(
    players, table, token_for, api_client
) -> None:
    round_ = deal_for_two(players, table)
    response = api_client(token_for(players[2], "read")).get(f"/rounds/{round_.pk}")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
