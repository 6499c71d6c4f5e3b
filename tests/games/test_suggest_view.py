"""GET /rounds/<id>/suggest/: suggestions for the requester's own cards, never anyone else's."""

from __future__ import annotations

import importlib.util
import sys
import types
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from games import services
from games.rules import format_cards, parse_cards
from tests.support.played import deal_for_two

pytestmark = pytest.mark.django_db


@dataclass
class FakeSuggestion:
    chi: tuple[tuple[int, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "chi": [format_cards(part) for part in self.chi],
            "win": [0.9, 0.5, 0.1],
            "ev": 1.5,
            "instant": None,
        }


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """A stand-in for games.rules.arrange that records which cards it was asked about."""
    calls: list[tuple[Any, ...]] = []

    def suggest(cards: Any, rules: Any, n: int = 3) -> list[FakeSuggestion]:
        cards = tuple(cards)
        calls.append(cards)
        return [FakeSuggestion((cards[:5], cards[5:10], cards[10:]))] * 4

    module = types.ModuleType("games.rules.arrange")
    module.suggest = suggest  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "games.rules.arrange", module)
    cache.clear()
    return calls


@pytest.fixture
def dealt(players, table):  # type: ignore[no-untyped-def]
    return deal_for_two(players, table)


def test_suggests_for_the_requesters_own_cards(client, players, dealt, seen) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[1])
    response = client.get(reverse("games:suggest", kwargs={"round_id": dealt.pk}))
    assert response.status_code == 200
    mine = dealt.players.get(user=players[1]).cards
    assert seen == [parse_cards(mine)]
    data = response.json()
    assert len(data["suggestions"]) == 3
    assert sorted(c for part in data["suggestions"][0]["chi"] for c in part) == sorted(mine)


def test_someone_who_is_not_in_the_round_gets_nothing(client, players, dealt, seen) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[2])
    response = client.get(reverse("games:suggest", kwargs={"round_id": dealt.pk}))
    assert response.status_code == 404
    assert seen == []


def test_no_suggestions_once_arranging_is_over(client, players, dealt, seen) -> None:  # type: ignore[no-untyped-def]
    services.stand(players[1])  # leaving forfeits: the round moves to the showdown
    client.force_login(players[1])
    response = client.get(reverse("games:suggest", kwargs={"round_id": dealt.pk}))
    assert response.status_code == 409
    assert seen == []


def test_logged_out_visitors_are_sent_to_log_in(client, dealt) -> None:  # type: ignore[no-untyped-def]
    response = client.get(reverse("games:suggest", kwargs={"round_id": dealt.pk}))
    assert response.status_code == 302


@pytest.mark.skipif(
    importlib.util.find_spec("games.rules.arrange") is None,
    reason="games.rules.arrange is not merged yet",
)
def test_real_suggestions_are_legal_arrangements_of_my_cards(client, players, dealt) -> None:  # type: ignore[no-untyped-def]
    cache.clear()
    client.force_login(players[0])
    response = client.get(reverse("games:suggest", kwargs={"round_id": dealt.pk}))
    assert response.status_code == 200
    mine = sorted(dealt.players.get(user=players[0]).cards)
    for suggestion in response.json()["suggestions"]:
        assert [len(part) for part in suggestion["chi"]] == [5, 5, 3]
        assert sorted(c for part in suggestion["chi"] for c in part) == mine
        assert len(suggestion["win"]) == 3


@pytest.mark.postgres
@pytest.mark.parametrize("round_id", ["99999999999999999999999", "9223372036854775808", "0"])
def test_a_round_id_beyond_a_bigint_is_a_404_that_queries_nothing(
    client: Any, make_user: Any, huge_numbers_queried: list[str], round_id: str
) -> None:
    from django.urls import Resolver404, resolve

    client.force_login(make_user("an"))
    assert client.get(f"/rounds/{round_id}/suggest/").status_code == 404
    with pytest.raises(Resolver404):
        resolve(f"/rounds/{round_id}/suggest/")
    assert huge_numbers_queried == []
