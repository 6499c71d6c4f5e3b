"""Who may do what in moderation: moderators (the group) and admins (staff) moderate."""

from __future__ import annotations

from typing import Any

from accounts.roles import is_admin, is_moderator

__all__ = ["can_moderate", "is_admin"]


def can_moderate(user: Any) -> bool:
    return is_moderator(user) or is_admin(user)
