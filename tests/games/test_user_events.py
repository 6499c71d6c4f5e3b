"""One user's own events (games.events.to_user, the API's event stream): a round dealt."""

from __future__ import annotations

import pytest

from games import events, selectors, services
from tests.support.played import deal_for_two

pytestmark = pytest.mark.django_db


def test_a_round_dealt_goes_to_each_player_dealt_in_with_their_own_cards_only(
    players, table, published
):
    for player in players[:3]:
        services.sit(player, table.pk)
    round_ = services.start_round(players[0], table.pk)
    dealt = {group: p for group, p in published if p["type"] == "round_dealt"}
    assert set(dealt) == {events.user_group(p.pk) for p in players[:3]}
    for player in round_.players.all():
        event = dealt[events.user_group(player.user_id)]
        assert event["cards"] == player.cards
        assert (event["table"], event["round"], event["position"]) == (
            table.pk,
            round_.pk,
            player.position,
        )
        assert event["version"] == round_.dealt_version and not event["submitted"]


def test_the_open_rounds_are_those_a_player_is_still_arranging(players, table):
    round_ = deal_for_two(players, table)
    [open_round] = selectors.open_rounds(players[1])
    assert open_round["round"] == round_.pk
    assert open_round["cards"] == round_.players.get(user=players[1]).cards
    assert selectors.open_rounds(players[2]) == []
