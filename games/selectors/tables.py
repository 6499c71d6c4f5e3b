"""The lobby's tables: which are listed, which a quick join may pick, what each is doing."""

from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.db.models import Count, F, QuerySet

from core.compiled import Compiled
from games.models import Seat, StakesIn, Table
from games.selectors.rounds import active_round


def _seated(table_id: int) -> QuerySet[Seat]:
    return Seat.objects.filter(table_id=table_id).select_related("user").order_by("position")


def _with_host(table_id: int) -> QuerySet[Table]:
    return Table.objects.filter(pk=table_id).select_related("host")


# Every deal and every socket's snapshot (a storm: every socket of a restarted server at
# once) reads these: compiled once (core.compiled).
_SEATED = Compiled(_seated)
_WITH_HOST = Compiled(_with_host)


def seats_with_users(table: Table) -> list[Seat]:
    """The table's seats in seat order, with their users."""
    return _SEATED.all(table.pk)


_SEATED_AND_STARTS = (
    f"SELECT (SELECT COUNT(*) FROM {Seat._meta.db_table} WHERE table_id = %s),"
    f" ARRAY(SELECT start_at FROM {Table._meta.db_table}"
    f" WHERE start_at >= %s AND start_at < %s AND id <> %s)"
)


def seated_and_starts(
    table: Table, window: tuple[datetime, datetime] | None
) -> tuple[int, list[datetime | None] | None]:
    """The seats taken at ``table``, and when the other tables deal within ``window`` (None
    without one): what a round's end reads for the next countdown (games.services.
    countdown.round_over, the deal pacing's turns), in one statement written once on
    PostgreSQL."""
    if window is not None and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_SEATED_AND_STARTS, [table.pk, window[0], window[1], table.pk])
            seated, starts = cursor.fetchone()
        return int(seated), list(starts)
    seated = Seat.objects.filter(table_id=table.pk).count()
    return seated, None if window is None else deals_within(table, window)


def deals_within(table: Table, window: tuple[datetime, datetime]) -> list[datetime | None]:
    """When the other tables deal within ``window`` (from its start, before its end)."""
    found = Table.objects.filter(start_at__gte=window[0], start_at__lt=window[1])
    return list(found.exclude(pk=table.pk).values_list("start_at", flat=True))


def table_with_host(table_id: int) -> Table:
    """The table with its host (lobby rows and snapshots show the host's name)."""
    table = find_table_with_host(table_id)
    if table is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    return table


def find_table_with_host(table_id: int) -> Table | None:
    """``table_with_host``, or None when there is no such table."""
    return _WITH_HOST.first(table_id)


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


def table_state(table: Table, *, live: bool | None = None) -> str:
    """``live``: whether a round is being played, when the caller knows (no query then)."""
    if live if live is not None else active_round(table) is not None:
        return "playing"
    if table.start_at is not None:
        return "starting"
    return "waiting"
