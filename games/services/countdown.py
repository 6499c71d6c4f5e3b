"""The automatic start: the countdown that deals the next round."""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count
from django.utils import timezone

from games.models import Round, Seat, Table
from games.selectors.presence import online_users
from games.selectors.rounds import active_round, latest_round
from games.selectors.tables import deals_within, seated_and_starts
from games.services.common import bump, table_event
from games.services.timers import queue_start
from games.services.writes import Writes
from games.signals import round_settled, send_on_commit

SUMMARY_SECONDS = settings.TABLE_SUMMARY_SECONDS
"""How long a round's end (its summary, or the voided notice) shows before the next deal:
long enough to read it (games.services.between lets players ask for more, or deal sooner)."""


def schedule_auto_start(
    table: Table, *, live: bool | None = None, seated: int | None = None
) -> None:
    """Restart the automatic start countdown if two or more wait and no round runs.
    ``live`` (a round is being played) and ``seated`` (the seats taken): when the caller
    knows them, under the table's lock (no query then)."""
    if live if live is not None else active_round(table) is not None:
        return
    if seated is None:
        seated = table.seat_set.count()
    if seated < 2:
        if table.start_at is not None:
            table.start_at = None
            bump(table, "start_at")
            table_event(
                table,
                {"type": "countdown", "start_at": None},
                lobby=True,
                taken=seated,
                state="waiting",
            )
        return
    delay = table.rules.start_seconds
    if newcomers_away(table):
        delay = max(delay, settings.TOURNAMENT_JOIN_SECONDS)
    set_start(table, timezone.now() + timedelta(seconds=delay), taken=seated)


def newcomers_away(table: Table) -> bool:
    """Whether someone seated at a managed table (a tournament's) since its last deal has
    no socket at it yet: their first deal there waits for them, TOURNAMENT_JOIN_SECONDS at
    most (docs/tournaments.md, "Your table starts"). Bots are always there."""
    if not table.is_managed:
        return False
    seats = table.seat_set.filter(user__is_bot=False)
    last = latest_round(table)
    if last is not None:
        seats = seats.filter(joined_at__gt=last.dealt_at)
    newcomers = set(seats.values_list("user_id", flat=True))
    return bool(newcomers - online_users(table.pk))


def arrived(table: Table) -> None:
    """A seated player opened the table (the caller holds its lock). A managed table that
    has dealt nothing yet and waits for its newcomers deals after its own short countdown
    once all of them are here, instead of waiting out TOURNAMENT_JOIN_SECONDS."""
    if not table.is_managed or table.start_at is None or not table.is_open:
        return
    if latest_round(table) is not None or newcomers_away(table):
        return
    soon = timezone.now() + timedelta(seconds=table.rules.start_seconds)
    if table.start_at > soon:
        set_start(table, soon)


def paced(table: Table, when: datetime, starts: list[datetime | None] | None = None) -> datetime:
    """When ``table`` deals, for a deal due at ``when``: at ``when`` itself, unless the
    site already deals its rate (``deal_rate``) then, and then in the first turn with room.

    Deals are counted in turns of about a quarter of a second (a table's ``start_at``
    marks its turn), each with room for a quarter second's worth. Without it, tables whose
    rounds ended together (a busy worker runs late timers together) deal together, and
    their players submit together, round after round: the waves grow, as buses bunch, and
    a wave queues for the server's threads. A table that meets a full turn waits for the
    next with room, and its countdown shows it; a site below its rate moves few deals,
    and by a fraction of a second.

    ``starts``: the other tables' deals in the window (``pacing_window``), when the caller
    read them already (round_over, with the seats)."""
    rate = deal_rate()
    if rate <= 0:
        return when
    room, turn = _turns(rate)
    window = _window(when, rate)
    first, horizon = (window[0] - _EPOCH) // turn, window[1]
    if starts is None:
        starts = deals_within(table, window)
    taken = Counter((start - _EPOCH) // turn for start in starts if start is not None)
    free = first
    while taken[free] >= room:
        free += 1
    if free == first:
        return when
    return min(_EPOCH + free * turn, horizon)


def late_turn(due: datetime, now: datetime) -> datetime | None:
    """For a deal due at ``due`` whose timer runs late, at ``now``: None to deal now, or,
    if the site paces its deals and ``now``'s turn has dealt its room, the next turn (which
    ``set_start`` paces on to the first turn with room).

    ``paced`` spreads the deals when they are scheduled; a worker that falls behind runs
    their timers late, and then together: every table it owes deals at once, the wave
    pacing is there to prevent. So a timer more than a turn late deals only if its turn
    has room left, counted in the rounds dealt since the turn began, and otherwise moves
    to the first turn with room, as a deal scheduled then would. A timer on time (or
    nearly) is not checked: its turn was counted when it was set."""
    if now - due <= timedelta(seconds=TURN_SECONDS):
        return None
    rate = deal_rate()
    if rate <= 0:
        return None
    room, turn = _turns(rate)
    begun = _EPOCH + ((now - _EPOCH) // turn) * turn
    if Round.objects.filter(dealt_at__gte=begun).count() < room:
        return None
    return begun + turn


def deal_rate() -> float:
    """The deals a second the site starts at most: DEALS_PER_SECOND where it is set (0:
    not paced), else adaptive: what the live tables can ask for at most, never below
    DEAL_PACING_MIN_RATE.

    A table with two or more seated deals again TABLE_SUMMARY_SECONDS after its round
    ends, and a round takes some seconds more (arranging, the reveals): N such tables ask
    for fewer than N ÷ TABLE_SUMMARY_SECONDS deals a second. Pacing at that rate never
    holds back a site's rounds on average (it only spreads the deals that bunch), and it
    follows the tables as they fill and empty: 200 tables, 16.7 a second (docs/deploy.md,
    Deal pacing). The live tables are counted once every LIVE_TABLES_TTL seconds in each
    process (one grouped count of the seats), not at every deal."""
    fixed: float | None = settings.DEALS_PER_SECOND
    if fixed is not None:
        return fixed
    asked = _live_tables() / settings.TABLE_SUMMARY_SECONDS
    return max(settings.DEAL_PACING_MIN_RATE, asked)


LIVE_TABLES_TTL = 5.0
"""Seconds a process keeps its count of the live tables (``deal_rate``)."""

_live: tuple[float, int] | None = None  # (when counted, on the monotonic clock; the count)


def _live_tables() -> int:
    """The tables with two or more seated (those that deal), counted at most once every
    LIVE_TABLES_TTL seconds in this process."""
    global _live
    now = time.monotonic()
    if _live is not None and now - _live[0] < LIVE_TABLES_TTL:
        return _live[1]
    count = (
        Seat.objects.values("table_id").annotate(seated=Count("pk")).filter(seated__gte=2).count()
    )
    _live = (now, count)
    return count


def forget_live_tables() -> None:
    """Count the live tables afresh at the next deal (tests that seat many tables)."""
    global _live
    _live = None


TURN_SECONDS = 0.25
"""About how long a turn of the deal pacing lasts (``paced``)."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def pacing_window(when: datetime) -> tuple[datetime, datetime] | None:
    """The deals ``paced`` counts for a deal due at ``when``: those from the start of its
    turn to the horizon (None: the site does not pace)."""
    rate = deal_rate()
    return None if rate <= 0 else _window(when, rate)


def _window(when: datetime, rate: float) -> tuple[datetime, datetime]:
    _room, turn = _turns(rate)
    first = (when - _EPOCH) // turn
    return _EPOCH + first * turn, when + timedelta(seconds=settings.DEAL_PACING_HORIZON_SECONDS)


def _turns(rate: float) -> tuple[int, timedelta]:
    """The deals a turn has room for at ``rate`` a second, and how long a turn lasts."""
    room = max(1, math.floor(rate * TURN_SECONDS))
    return room, timedelta(microseconds=max(1, round(room * 1_000_000 / rate)))  # whole µs


def set_start(
    table: Table,
    when: datetime,
    *,
    taken: int | None = None,
    extra: dict[str, Any] | None = None,
    writes: Writes | None = None,
    starts: list[datetime | None] | None = None,
) -> None:
    """Count down to a deal at ``when`` (paced); ``extra``: more for the countdown event
    (games.services.between: who is ready, who asked to wait); ``writes``: the step's last
    writes (games.services.writes), which save the countdown; ``starts``: see paced."""
    when = paced(table, when, starts)
    table.start_at = when
    bump(table, "start_at", writes=writes)
    table_event(
        table,
        {"type": "countdown", "start_at": when.isoformat(), **(extra or {})},
        lobby=True,
        taken=taken,
        state="starting",
    )
    queue_start(table.pk, when)


def restate_start(table: Table, extra: dict[str, Any], *, writes: Writes | None = None) -> None:
    """The countdown again, to the deal already set (``table.start_at``), with ``extra``
    (who is ready): a new version and its event, for the table only (the lobby's row has
    not changed). Neither paced again nor a timer more: the one queued for that time still
    holds (``start_round_when_due``)."""
    assert table.start_at is not None
    bump(table, writes=writes)
    table_event(table, {"type": "countdown", "start_at": table.start_at.isoformat(), **extra})


def round_over(
    table: Table,
    event: dict[str, Any],
    *,
    audience: list[int] | None = None,
    withheld: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    writes: Writes | None = None,
) -> None:
    """A round has ended (settled or voided): tell the table and the lobby, let what follows
    a round (bots tidying up, the next countdown) follow. ``writes``: see set_start."""
    when = timezone.now() + timedelta(seconds=SUMMARY_SECONDS)
    sitting, starts = seated_and_starts(table, pacing_window(when))
    seated = sitting.taken
    # Two visible changes, the round's end and (with two seated) the next countdown, each
    # with its own version; one UPDATE saves both (the countdown's bump, or the one here).
    table.version += 1
    table_event(
        table,
        event,
        lobby=True,
        taken=seated,
        state="waiting",
        audience=audience,
        withheld=withheld,
    )
    send_on_commit(
        round_settled, table_id=table.pk, round_id=event["round"], managed=table.is_managed
    )
    if seated >= 2 and table.is_open:  # a closed table (an arena's, its board played) stops
        set_start(table, when, taken=seated, writes=writes, starts=starts)
        if writes is not None:
            # Nobody has said ready yet: what this countdown's readers take from the row
            # (Table.between; without it they read the round log).
            # And the people seated (until a seat changes: games.services.seats), whose
            # readies deal at once: a ``ready`` need not read the seats.
            table.between = {
                "round": event["round"],
                "ready": [],
                "waited": [],
                "people": sitting.people,
            }
            writes.update([table], ["between"])
    elif writes is not None:
        writes.update([table], ["version"])
    else:
        table.save(update_fields=["version"])
