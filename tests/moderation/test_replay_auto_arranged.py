"""The moderators' replay shows a hand that was played for its owner at the deadline."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as games
from games.models import Round, RoundState
from tests.support.arranging import naive_arrangement
from tests.support.played import deal_for_two

pytestmark = pytest.mark.django_db


def test_the_replay_shows_which_hand_was_auto_arranged_and_by_what(
    client: Any, players: list[Any], moderator: Any, table: Any
) -> None:
    round_ = deal_for_two(players, table)
    sender = round_.players.get(user=players[1])
    games.submit_arrangement(players[1], round_.pk, naive_arrangement(sender.cards))
    for _step in range(8):  # players[0] never arranges; the timers run to the settlement
        round_.refresh_from_db()
        if round_.state == RoundState.SETTLED:
            break
        Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        games.advance_round(round_.pk, round_.state, round_.phase)
    idle = round_.players.get(user=players[0])
    assert idle.auto_arranged == "engine"

    client.force_login(moderator)
    replay = client.get(reverse("moderation:replay", args=[round_.pk]), {"settle_again": 1})
    page = replay.content.decode()
    [step] = [s for s in replay.context["steps"] if s.kind == "auto_arranged"]
    assert step.who == players[0].shown_name and step.data["by"] == "engine"
    assert 'data-by="engine"' in page
    assert 'data-testid="auto-arranged"' in page
    # The played hand is stored, so settling again gives what was paid.
    assert all(row.difference == 0 for row in replay.context["settle_again"])
