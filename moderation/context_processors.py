from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from moderation.selectors import unread_count


def notifications(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": unread_count(user)}
