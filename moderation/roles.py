"""Who may do what in moderation: moderators (the group) and admins (staff) moderate."""

from __future__ import annotations

from typing import Any

from accounts.roles import holds_staff_role, is_admin, is_moderator

__all__ = ["can_moderate", "holds_staff_role", "is_admin"]


def can_moderate(user: Any) -> bool:
    return is_moderator(user) or is_admin(user)
