"""The tournaments listen to the tables (games.signals) and to the ledger (its prize holds)."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from tournaments import services


def on_sit_requested(sender: Any, user: User, **kwargs: Any) -> str | None:
    """An entrant waits for the tournament to seat them: no ordinary table meanwhile."""
    return services.registration_refusal(user)


def on_prize_hold_changed(sender: Any, tournament_id: int, outcome: str, **kwargs: Any) -> None:
    """After the commit: its prizes were held, released or the buy-ins returned; the
    tournament's page shows it (a new version of its state)."""
    services.prize_review_changed(tournament_id)
