"""The arena listens to the tables (``games.signals``, connected in
``TournamentsConfig.ready``): a board over sends its players back to the queue; an arena
table admits only its players."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import RoundPlayer, Table
from tournaments.arena import tasks
from tournaments.models import Kind, TournamentTable


def on_round_over(
    sender: Any, table_id: int, round_id: int, managed: bool | None = None, **kwargs: Any
) -> None:
    """``games.signals.round_settled`` (settled or voided, after the commit): an arena
    table's players go back to the queue once the summary has shown."""
    if managed is False:
        return  # an ordinary table, never an arena's: no query after each of its rounds
    link = (
        TournamentTable.objects.filter(table_id=table_id, tournament__kind=Kind.ARENA)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if link is None:
        return
    when = timezone.now() + timedelta(seconds=settings.ARENA_SUMMARY_SECONDS)
    tasks.finish_table_task.apply_async((link, table_id), eta=when)


def may_watch(sender: Any, table: Table, user: User, **kwargs: Any) -> bool | str | None:
    """``games.signals.watch_requested``: an arena table is for its players only (those
    seated there, or dealt in there). Anyone else might still be dealt its board: they
    are told so (the table page sends them to the arena's page)."""
    if not table.is_managed:
        return None  # an ordinary table (games asks about private ones, too)
    link = TournamentTable.objects.filter(table=table, tournament__kind=Kind.ARENA).exists()
    if not link:
        return None
    if not user.is_authenticated:
        return False
    if table.seat_set.filter(user=user).exists():
        return True
    if RoundPlayer.objects.filter(round__table=table, user=user).exists():
        return True
    return str(_("Only the players of an arena board may open it: this one is not yours."))
