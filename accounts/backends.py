"""Authentication: Django's model backend, closed to bot accounts."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend


class PeopleOnlyBackend(ModelBackend):
    """Bots have unusable passwords too; this holds even if one were ever set by mistake."""

    def user_can_authenticate(self, user: Any) -> bool:
        return not getattr(user, "is_bot", False) and super().user_can_authenticate(user)


def lockout_username(request: Any, credentials: dict[str, Any] | None = None) -> str | None:
    """The username django-axes records a failed login under, cut to a username's length.

    Axes reads it from the raw form before any validation, and stores it in a 255-character
    column: a longer one made the login page fail with a 500.
    """
    data = credentials if credentials else getattr(request, "POST", {})
    username = data.get("username") if data else None
    return username[:150] if isinstance(username, str) else None
