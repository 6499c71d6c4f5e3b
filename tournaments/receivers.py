"""The tournaments listen to the tables (games.signals) and to the ledger (its prize holds)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from accounts.models import User
from games.models import Table
from tournaments import selectors, services


def on_sit_requested(sender: Any, user: User, **kwargs: Any) -> str | None:
    """An entrant waits for the tournament to seat them: no ordinary table meanwhile."""
    return services.registration_refusal(user)


def table_home(sender: Any, table: Table, user: User, **kwargs: Any) -> str | None:
    """``games.signals.table_refused``: someone kept out of a tournament's table goes to
    the tournament's page (an entrant whose board closed as their page opened it)."""
    tournament = selectors.table_of_tournament(table.pk)
    if tournament is None:
        return None
    return reverse("tournaments:detail", kwargs={"tournament_id": tournament.pk})


def on_prize_hold_changed(sender: Any, tournament_id: int, outcome: str, **kwargs: Any) -> None:
    """After the commit: its prizes were held, released or the buy-ins returned; the
    tournament's page shows it (a new version of its state)."""
    services.prize_review_changed(tournament_id)
