"""Property: whatever three people do, friendship is mutual and consistent with requests
and blocks."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from django.db import transaction
from django.db.models import F
from hypothesis import given
from hypothesis import strategies as st

from social import selectors, services
from social.errors import SocialError
from social.models import Block, FriendRequest, Friendship
from tests.support.properties import on_the_database

pytestmark = pytest.mark.django_db

PEOPLE = 3
who = st.integers(0, PEOPLE - 1)
operation = st.tuples(
    st.sampled_from(["ask", "accept", "refuse", "cancel", "unfriend", "block", "unblock"]),
    who,
    who,
)


def _apply(name: str, a: Any, b: Any) -> None:
    if name == "ask":
        services.send_friend_request(a, b)
    elif name in ("accept", "refuse"):
        request = FriendRequest.objects.filter(from_user=b, to_user=a).first()
        if request is not None:
            accept_or_refuse = {
                "accept": services.accept_friend_request,
                "refuse": services.refuse_friend_request,
            }[name]
            accept_or_refuse(a, request.pk)
    elif name == "cancel":
        services.cancel_friend_request(a, b)
    elif name == "unfriend":
        services.remove_friend(a, b)
    elif name == "block":
        services.block_user(a, b)
    else:
        services.unblock_user(a, b)


@on_the_database(40)
@given(ops=st.lists(operation, max_size=15))
def test_any_sequence_keeps_friendship_mutual_and_apart_from_requests_and_blocks(
    people: list[Any], ops: list[tuple[str, int, int]]
) -> None:
    with transaction.atomic():
        for name, i, j in ops:
            with contextlib.suppress(SocialError):  # a refusal must change nothing
                _apply(name, people[i], people[j])
            for a in people:
                for b in people:
                    friends = selectors.are_friends(a.pk, b.pk)
                    assert friends == selectors.are_friends(b.pk, a.pk)
                    assert (b.pk in selectors.friend_ids(a.pk)) == friends
                    if friends:
                        assert not FriendRequest.objects.filter(from_user=a, to_user=b).exists()
                        assert not Block.objects.filter(blocker=a, blocked=b).exists()
                    # Two people never wait on each other: asking back makes them friends.
                    assert not (
                        FriendRequest.objects.filter(from_user=a, to_user=b).exists()
                        and FriendRequest.objects.filter(from_user=b, to_user=a).exists()
                    )
            assert not Friendship.objects.filter(user_low=F("user_high")).exists()
        transaction.set_rollback(True)  # each example starts from the same three strangers
