"""A moderator voids a round that cannot be played or settled fairly: audited, every
stake returned through the ledger."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import services as games
from games.models import Round, RoundState, Table
from ledger import selectors as ledger_selectors
from moderation import services
from moderation.errors import Forbidden, ModerationError
from moderation.models import ActionKind, StaffAction
from tests.support.played import deal_for_two

pytestmark = pytest.mark.django_db


@pytest.fixture
def live_round(players: list[Any], table: Table) -> Round:
    return deal_for_two(players, table)


def test_a_moderator_voids_a_live_round_and_every_stake_comes_back(
    players: list[Any], moderator: Any, table: Table
) -> None:
    before = [ledger_selectors.balance(p) for p in players[:2]]
    round_ = deal_for_two(players, table)

    services.staff_void_round(moderator, round_.pk, reason="Server fault during the deal")

    round_.refresh_from_db()
    assert round_.state == RoundState.CANCELLED
    assert [ledger_selectors.balance(p) for p in players[:2]] == before
    action = StaffAction.objects.get(action=ActionKind.VOID_ROUND)
    assert action.actor == moderator
    assert action.target_id == str(round_.pk)
    assert action.reason == "Server fault during the deal"
    assert set(action.after["returned"]) == {str(p.pk) for p in players[:2]}
    call_command("ledger_check")


def test_voiding_needs_a_reason(moderator: Any, live_round: Round) -> None:
    with pytest.raises(ModerationError):
        services.staff_void_round(moderator, live_round.pk, reason="  ")
    live_round.refresh_from_db()
    assert live_round.state == RoundState.ARRANGING


def test_a_player_cannot_void_a_round(players: list[Any], live_round: Round) -> None:
    with pytest.raises(Forbidden):
        services.staff_void_round(players[0], live_round.pk, reason="I was losing")
    live_round.refresh_from_db()
    assert live_round.state == RoundState.ARRANGING
    # The refusal is on the record (who tried what), nothing else is.
    assert list(StaffAction.objects.values_list("action", "actor")) == [
        (ActionKind.REFUSED, players[0].pk)
    ]


def test_a_moderator_cannot_void_a_round_they_play_in(
    players: list[Any], moderator: Any, table: Table
) -> None:
    games.sit(moderator, table.pk)
    games.sit(players[0], table.pk)
    round_ = games.start_round(table.host, table.pk)
    with pytest.raises(Forbidden) as refused:
        services.staff_void_round(moderator, round_.pk, reason="Losing hand")
    assert refused.value.code == "conflict_of_interest"
    round_.refresh_from_db()
    assert round_.state == RoundState.ARRANGING
    assert StaffAction.objects.get().action == ActionKind.REFUSED


def test_a_settled_round_cannot_be_voided(moderator: Any, settled_round: Round) -> None:
    with pytest.raises(ModerationError) as refused:
        services.staff_void_round(moderator, settled_round.pk, reason="Too late")
    assert refused.value.code == "round_over"
    assert not StaffAction.objects.filter(action=ActionKind.VOID_ROUND).exists()


def test_the_void_button_on_a_live_round_voids_it(
    client: Any, moderator: Any, live_round: Round
) -> None:
    client.force_login(moderator)
    page = client.get(reverse("moderation:replay", args=[live_round.pk]))
    assert b'data-testid="void-round"' in page.content
    done = client.post(
        reverse("moderation:void_round", args=[live_round.pk]), {"reason": "Stuck table"}
    )
    assert done.status_code == 302
    live_round.refresh_from_db()
    assert live_round.state == RoundState.CANCELLED
    replay = client.get(done.url)
    assert replay.status_code == 200


def test_the_void_action_is_not_there_for_players(
    client: Any, players: list[Any], live_round: Round
) -> None:
    client.force_login(players[0])
    response = client.post(reverse("moderation:void_round", args=[live_round.pk]), {"reason": "x"})
    assert response.status_code == 404
    live_round.refresh_from_db()
    assert live_round.state == RoundState.ARRANGING
