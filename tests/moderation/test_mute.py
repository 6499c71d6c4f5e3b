"""Staff mute a player's table talk for a while, audited like the other sanctions."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from moderation import services
from moderation.errors import ModerationError
from moderation.models import ActionKind, StaffAction
from moderation.selectors import muted_until

pytestmark = pytest.mark.django_db


def test_a_mute_is_audited_with_its_end_and_reason(moderator: Any, players: list[Any]) -> None:
    services.mute(moderator, players[1].pk, hours=3, reason="chửi bậy")
    assert muted_until(players[1].pk) is not None
    action = StaffAction.objects.get(action=ActionKind.MUTE)
    assert (action.actor, action.target_id, action.reason) == (
        moderator,
        str(players[1].pk),
        "chửi bậy",
    )
    assert action.before == {"until": None}
    assert action.after["until"] and action.after["reason"] == "chửi bậy"


def test_lifting_a_mute_lets_the_player_talk_again(moderator: Any, players: list[Any]) -> None:
    services.mute(moderator, players[1].pk, hours=3, reason="spam")
    services.unmute(moderator, players[1].pk, reason="đã xin lỗi")
    assert muted_until(players[1].pk) is None
    assert StaffAction.objects.filter(action=ActionKind.UNMUTE).count() == 1


@pytest.mark.parametrize("hours", [0, 24 * 365 + 1, "lâu", None])
def test_a_mute_lasts_an_hour_to_a_year(moderator: Any, players: list[Any], hours: Any) -> None:
    with pytest.raises(ModerationError) as refused:
        services.mute(moderator, players[1].pk, hours=hours, reason="spam")
    assert refused.value.code == "bad_duration"


def test_a_player_cannot_mute_anyone(players: list[Any]) -> None:
    with pytest.raises(ModerationError):
        services.mute(players[0], players[1].pk, hours=1, reason="spam")
    assert StaffAction.objects.filter(action=ActionKind.REFUSED).count() == 1
    assert muted_until(players[1].pk) is None


def test_the_users_page_mutes_and_shows_it(
    client: Client, moderator: Any, players: list[Any]
) -> None:
    client.force_login(moderator)
    url = reverse("moderation:mute", args=[players[1].pk])
    client.post(url, {"hours": "2", "reason": "chửi bậy"})
    page = client.get(reverse("moderation:user_detail", args=[players[1].pk])).text
    assert 'data-testid="user-mute"' in page
    assert muted_until(players[1].pk) is not None
    assert "chửi bậy" in page  # among the sanctions
