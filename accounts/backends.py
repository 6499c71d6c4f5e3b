"""Authentication: Django's model backend, closed to bot accounts."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend


class PeopleOnlyBackend(ModelBackend):
    """Bots have unusable passwords too; this holds even if one were ever set by mistake."""

    def user_can_authenticate(self, user: Any) -> bool:
        return not getattr(user, "is_bot", False) and super().user_can_authenticate(user)
