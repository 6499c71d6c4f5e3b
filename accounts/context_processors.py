from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

from accounts.roles import is_admin, is_moderator


def header(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    return {
        "site_languages": settings.LANGUAGES,
        "user_is_moderator": bool(user and is_moderator(user)),
        "user_is_admin": bool(user and is_admin(user)),
    }
