from __future__ import annotations

import pytest

from social import services
from social.errors import SocialError
from social.models import Block
from social.selectors import blocked_ids

pytestmark = pytest.mark.django_db


def test_a_blocked_user_is_among_the_blockers_blocked_ids(make_user) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    services.block_user(alice, bob)
    assert blocked_ids(alice.pk) == {bob.pk}
    assert blocked_ids(bob.pk) == set()


def test_blocking_twice_keeps_one_block(make_user) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    services.block_user(alice, bob)
    services.block_user(alice, bob)
    assert Block.objects.filter(blocker=alice, blocked=bob).count() == 1


def test_a_player_cannot_block_themselves(make_user) -> None:
    alice = make_user("alice")
    with pytest.raises(SocialError) as refused:
        services.block_user(alice, alice)
    assert refused.value.code == "block_self"
    assert not Block.objects.exists()


def test_unblocking_lets_the_user_be_seen_again(make_user) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    services.block_user(alice, bob)
    services.unblock_user(alice, bob)
    assert blocked_ids(alice.pk) == set()
