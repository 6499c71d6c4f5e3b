from __future__ import annotations

import pytest

from games import services as games
from social import selectors, services
from social.errors import SocialError

pytestmark = pytest.mark.django_db


def test_a_friend_request_from_a_blocked_player_is_hidden(people) -> None:
    an, binh, _chi = people
    services.block_user(binh, an)
    services.send_friend_request(an, binh)
    assert not selectors.incoming_requests(binh).exists()
    assert selectors.unread_count(binh) == 0


def test_an_invitation_from_a_blocked_player_is_hidden(people) -> None:
    an, binh, _chi = people
    services.accept_friend_request(binh, services.send_friend_request(an, binh).pk)
    games.open_table(an, name="Bàn An", stake=10)
    assert services.invite_to_table(an, binh) is not None
    services.block_user(binh, an)
    assert not selectors.notifications_of(binh).exists()


def test_blocking_a_friend_ends_the_friendship(people) -> None:
    an, binh, _chi = people
    services.accept_friend_request(binh, services.send_friend_request(an, binh).pk)
    services.block_user(an, binh)
    assert not selectors.are_friends(an.pk, binh.pk)


def test_a_player_cannot_ask_someone_they_blocked(people) -> None:
    an, binh, _chi = people
    services.block_user(an, binh)
    with pytest.raises(SocialError) as refused:
        services.send_friend_request(an, binh)
    assert refused.value.code == "you_blocked"
