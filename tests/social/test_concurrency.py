"""Two clicks at once between the same two people end in one state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from social import services
from social.errors import SocialError
from social.models import FriendRequest, Friendship
from tests.support.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _race(*calls: Callable[[], Any]) -> list[Any]:
    return race(*calls, refusals=(SocialError,))


def test_two_requests_sent_both_ways_at_once_make_friends(people) -> None:
    an, binh, _chi = people
    _race(
        lambda: services.send_friend_request(an, binh),
        lambda: services.send_friend_request(binh, an),
    )
    assert Friendship.objects.count() == 1
    assert not FriendRequest.objects.exists()


def test_a_request_accepted_twice_at_once_makes_one_friendship(people) -> None:
    an, binh, _chi = people
    request = services.send_friend_request(an, binh)
    results = _race(
        lambda: services.accept_friend_request(binh, request.pk),
        lambda: services.accept_friend_request(binh, request.pk),
    )
    assert Friendship.objects.count() == 1
    # The second click either met the friendship under the lock or found the request gone.
    assert isinstance(results[0], Friendship) or isinstance(results[1], Friendship)
    for result in results:
        assert isinstance(result, Friendship) or result.code == "request_gone"
