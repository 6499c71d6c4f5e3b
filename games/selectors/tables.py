"""The lobby's tables: which are listed, which a quick join may pick, what each is doing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import connection
from django.db.models import Count, F, QuerySet

from accounts.models import User
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
    f" ARRAY(SELECT s.user_id FROM {Seat._meta.db_table} s"
    f" JOIN {User._meta.db_table} u ON u.id = s.user_id"
    f" WHERE s.table_id = %s AND NOT u.is_bot ORDER BY s.position),"
    f" ARRAY(SELECT start_at FROM {Table._meta.db_table}"
    f" WHERE start_at >= %s AND start_at < %s AND id <> %s)"
)


@dataclass(frozen=True)
class Seated:
    """Who is seated at a table: how many seats are taken, and the people (not bots) in
    seat order."""

    taken: int
    people: list[int]


def seated_and_starts(
    table: Table, window: tuple[datetime, datetime] | None
) -> tuple[Seated, list[datetime | None] | None]:
    """Who is seated at ``table``, and when the other tables deal within ``window`` (None
    without one): what a round's end reads for the next countdown (games.services.
    countdown.round_over: the seats taken, the people whose ``ready`` deals at once, the
    deal pacing's turns), in one statement written once on PostgreSQL."""
    if connection.vendor == "postgresql":
        empty = (datetime(1970, 1, 1, tzinfo=UTC),) * 2  # no window: no other deal read
        since, until = window or empty
        with connection.cursor() as cursor:
            cursor.execute(_SEATED_AND_STARTS, [table.pk, table.pk, since, until, table.pk])
            taken, people, starts = cursor.fetchone()
        return Seated(int(taken), list(people)), None if window is None else list(starts)
    seats = list(
        Seat.objects.filter(table_id=table.pk)
        .order_by("position")
        .values_list("user_id", "user__is_bot")
    )
    seated = Seated(len(seats), [u for u, bot in seats if not bot])
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
