"""The tournaments listen to the tables (games.signals)."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from tournaments import services


def on_sit_requested(sender: Any, user: User, **kwargs: Any) -> str | None:
    """An entrant waits for the tournament to seat them: no ordinary table meanwhile."""
    return services.registration_refusal(user)
