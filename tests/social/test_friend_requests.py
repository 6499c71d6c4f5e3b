from __future__ import annotations

import pytest

from notices import services as notices
from notices.models import Notification, NotificationKind
from social import selectors, services
from social.errors import SocialError
from social.models import FriendRequest, Friendship

pytestmark = pytest.mark.django_db


def test_an_accepted_friend_request_makes_two_friends(people) -> None:
    an, binh, _chi = people
    request = services.send_friend_request(an, binh)
    services.accept_friend_request(binh, request.pk)
    assert selectors.friend_ids(an.pk) == {binh.pk}
    assert selectors.friend_ids(binh.pk) == {an.pk}
    assert not FriendRequest.objects.exists()
    assert Notification.objects.filter(user=an, kind=NotificationKind.FRIEND_ACCEPTED).exists()


def test_the_receiver_is_notified_of_a_friend_request(people) -> None:
    an, binh, _chi = people
    services.send_friend_request(an, binh)
    assert selectors.unread_count(binh) == 1
    notices.mark_notifications_read(binh)
    assert selectors.unread_count(binh) == 0


def test_a_refused_friend_request_leaves_no_friendship(people) -> None:
    an, binh, _chi = people
    request = services.send_friend_request(an, binh)
    services.refuse_friend_request(binh, request.pk)
    assert not Friendship.objects.exists()
    assert not FriendRequest.objects.exists()


def test_a_request_to_someone_who_asked_first_makes_friends_at_once(people) -> None:
    an, binh, _chi = people
    services.send_friend_request(an, binh)
    result = services.send_friend_request(binh, an)
    assert isinstance(result, Friendship)
    assert selectors.are_friends(an.pk, binh.pk)


def test_only_the_receiver_can_accept_a_request(people) -> None:
    an, binh, chi = people
    request = services.send_friend_request(an, binh)
    with pytest.raises(SocialError) as refused:
        services.accept_friend_request(chi, request.pk)
    assert refused.value.code == "request_gone"


def test_asking_a_friend_again_is_refused_with_a_clear_error(people) -> None:
    an, binh, _chi = people
    services.accept_friend_request(binh, services.send_friend_request(an, binh).pk)
    with pytest.raises(SocialError) as refused:
        services.send_friend_request(an, binh)
    assert refused.value.code == "already_friends"
    assert "binh" in refused.value.message


def test_a_player_cannot_befriend_themselves(people) -> None:
    with pytest.raises(SocialError) as refused:
        services.send_friend_request(people[0], people[0])
    assert refused.value.code == "friend_self"


def test_removing_a_friend_ends_the_friendship_both_ways(people) -> None:
    an, binh, _chi = people
    services.accept_friend_request(binh, services.send_friend_request(an, binh).pk)
    services.remove_friend(binh, an)
    assert not selectors.are_friends(an.pk, binh.pk)
