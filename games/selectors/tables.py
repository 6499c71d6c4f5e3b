"""The lobby's tables: which are listed, which a quick join may pick, what each is doing."""

from __future__ import annotations

from django.db.models import Count, F, QuerySet

from games.models import StakesIn, Table
from games.selectors.rounds import active_round


def open_tables() -> QuerySet[Table]:
    """The lobby's tables: open and public (a private table is reached by its invite, a
    tournament's through the tournament)."""
    return (
        Table.objects.filter(is_open=True, is_private=False, stakes_in=StakesIn.XU)
        .select_related("host")
        .order_by("stake", "pk")
    )


def joinable_tables(balance: int, limit: int = 50) -> QuerySet[Table]:
    """Open tables with a free seat this balance can afford, fullest first (quick join)."""
    return (
        open_tables()
        .filter(min_balance__lte=balance)
        .annotate(taken=Count("seat_set"))
        .filter(taken__lt=F("seats"))
        .order_by("-taken", "stake", "pk")[:limit]
    )


def table_state(table: Table) -> str:
    if active_round(table) is not None:
        return "playing"
    if table.start_at is not None:
        return "starting"
    return "waiting"
