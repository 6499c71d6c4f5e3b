"""An invitation on the invited friend's own group (the API's event stream)."""

from __future__ import annotations

import pytest

from games import events
from games import services as games
from notices import services as notices
from social import selectors, services

pytestmark = pytest.mark.django_db


def test_an_invitation_is_sent_to_the_friend_with_the_table(friends, published) -> None:
    an, binh, _chi = friends
    table = games.open_table(an, name="Bàn An", stake=10)
    services.invite_to_table(an, binh)
    [(group, event)] = [(g, p) for g, p in published if p["type"] == "invitation"]
    assert group == events.user_group(binh.pk)
    assert event["table"] == table.pk and event["from"]["user"] == an.pk


def test_an_invitation_to_a_private_table_names_the_table_behind_its_link(friends) -> None:
    an, binh, _chi = friends
    table = games.open_table(an, name="Nhà An", stake=10, is_private=True)
    services.invite_to_table(an, binh)
    [event] = selectors.open_invitations(binh)
    assert event["table"] == table.pk and "/invite/" in event["url"]


def test_a_read_invitation_or_a_closed_table_is_no_longer_open(friends) -> None:
    an, binh, _chi = friends
    games.open_table(an, name="Bàn An", stake=10)
    services.invite_to_table(an, binh)
    assert len(selectors.open_invitations(binh)) == 1
    notices.mark_notifications_read(binh)
    assert selectors.open_invitations(binh) == []
