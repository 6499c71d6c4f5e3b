"""Reads of the social app used in more than one place."""

from __future__ import annotations

from social.models import Block


def blocked_ids(user_id: int) -> set[int]:
    """The ids of the users whose messages, invitations and requests `user_id` must not see."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))
