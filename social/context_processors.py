from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from social.selectors import unread_count


def social(request: HttpRequest) -> dict[str, Any]:
    """The header's count of unread friend requests and invitations."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"social_unread": unread_count(user)}
