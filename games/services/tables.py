"""Opening and closing tables."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.text import clean_title
from games import events
from games.errors import GameError
from games.models import DuplicateSchedule, Preset, Round, Seat, StakesIn, Table
from games.rules import Rules, RulesConfigError
from games.selectors.payloads import lobby_row
from games.selectors.rounds import LIVE_STATES, active_round
from games.services.common import bump, lock_table
from games.services.seats import remove_seat, sit

logger = logging.getLogger(__name__)

MIN_BALANCE_STAKES = 20


@transaction.atomic
def create_table(
    host: User,
    *,
    name: str,
    preset: str = Preset.PORTAL,
    stake: int,
    seats: int = 4,
    rules_overrides: dict[str, Any] | None = None,
    min_balance: int | None = None,
    allow_bots: bool = False,
    bot_wait_seconds: int = 5,
    is_private: bool = False,
    duplicate_schedule: DuplicateSchedule | None = None,
    schedule_owner: str = DuplicateSchedule.OPEN,
    stakes_in: str = StakesIn.XU,
) -> Table:
    """Open a table; house rules are validated against docs/rules.md#house-rules.

    A duplicate table (``duplicate_schedule``) deals the schedule's boards and plays by its
    rules: ``preset`` and ``rules_overrides`` are the schedule's (docs/duplicate.md). A
    competition's schedule is dealt only at the tables its owner opens, presenting itself
    as ``schedule_owner`` (``games.services.duplicate.ensure_may_deal``).
    ``stakes_in`` other than xu: a table an app (a tournament) opens for its own players
    (games.stakes): unlisted, with seats it assigns, outside its creator's table limits."""
    if duplicate_schedule is not None:
        # Imported here: games.services.duplicate builds on this module (valid_rules).
        from games.services.duplicate import ensure_may_deal

        ensure_may_deal(duplicate_schedule, schedule_owner)
        if duplicate_schedule.closed_at is not None:
            raise GameError(_("This duplicate schedule is closed."), code="schedule_closed")
        preset, rules_overrides = duplicate_schedule.preset, duplicate_schedule.rules_overrides
    name = clean_title(name, GameError, _("A table needs a name of 1 to 60 characters."))
    overrides = valid_rules(preset, rules_overrides)
    if not isinstance(stake, int) or not 1 <= stake <= 1_000_000:
        raise GameError(_("The stake must be between 1 and 1,000,000 xu."), code="bad_stake")
    if seats not in (2, 3, 4):
        raise GameError(_("A table has 2 to 4 seats."), code="bad_seats")
    if not isinstance(bot_wait_seconds, int) or not 1 <= bot_wait_seconds <= 60:
        raise GameError(_("Bots wait 1 to 60 seconds before they join."), code="bad_bot_wait")
    minimum = MIN_BALANCE_STAKES * stake if min_balance is None else min_balance
    if minimum < 0:
        raise GameError(_("The minimum balance cannot be negative."), code="bad_min_balance")
    if stakes_in not in StakesIn.values:
        raise GameError(_("Unknown kind of stakes."), code="bad_stakes_in")
    if stakes_in == StakesIn.XU:
        _within_host_limits(host)
    table = Table.objects.create(
        name=name,
        host=host,
        preset=preset,
        rules_overrides=overrides,
        stake=stake,
        seats=seats,
        min_balance=minimum,
        allow_bots=allow_bots,
        bot_wait_seconds=bot_wait_seconds,
        is_private=bool(is_private),
        duplicate_schedule=duplicate_schedule,
        stakes_in=stakes_in,
    )
    if not table.is_private and not table.is_managed:
        events.to_lobby({"type": "table", "table": lobby_row(table)})
    return table


def valid_rules(preset: str, rules_overrides: dict[str, Any] | None) -> dict[str, Any]:
    """The house rules, if the preset exists and they are allowed (docs/rules.md#house-rules)."""
    if preset not in Preset.values:
        raise GameError(_("Unknown rules preset."), code="bad_preset")
    overrides = rules_overrides or {}
    try:
        Rules.preset(preset).with_overrides(overrides)
    except RulesConfigError as exc:
        raise GameError(
            _("These house rules are not allowed: %(detail)s"), code="bad_rules", detail=str(exc)
        ) from exc
    return overrides


@transaction.atomic
def open_table(host: User, *, sit_down: bool = True, **options: Any) -> Table:
    """The create-table form: open a table and, if asked, seat its creator at once.

    One transaction: when the creator cannot sit (seated elsewhere, balance below the
    table's minimum…) no table is left behind and the form shows why.
    """
    table = create_table(host, **options)
    if sit_down:
        sit(host, table.pk)
    return table


def _within_host_limits(host: User) -> None:
    """One person opens at most TABLES_OPEN_PER_USER tables at once, TABLES_CREATED_PER_HOUR
    an hour. The house's tables (hosted by bots: demo and bot-only tables) do not count."""
    if host.is_bot:
        return
    # Lock the host's row: two creations at once by one person cannot both pass the caps.
    User.objects.select_for_update().filter(pk=host.pk).first()
    mine = Table.objects.filter(host=host)
    most = settings.TABLES_OPEN_PER_USER
    if mine.filter(is_open=True).count() >= most:
        raise GameError(
            _("You already have %(n)s open tables. Play at one or leave it empty to close."),
            code="too_many_tables",
            n=most,
        )
    per_hour = settings.TABLES_CREATED_PER_HOUR
    if mine.filter(created_at__gte=timezone.now() - timedelta(hours=1)).count() >= per_hour:
        raise GameError(
            _("You opened %(n)s tables in the last hour. Please wait a little."),
            code="creating_too_fast",
            n=per_hour,
        )


@transaction.atomic
def close_table(table_id: Any, *, if_empty_before: datetime | None = None) -> Table | None:
    """Close a table: it leaves the lobby at once and nobody can sit or start a round.

    A round in progress is never voided: it plays on to its settlement, and whoever is
    still seated is stood up by the next sweep once it is over (``close_empty_tables``).
    With ``if_empty_before`` (the sweep), only a table still empty since before then is
    closed; None when it was not.
    """
    table = lock_table(table_id)
    seated = list(table.seat_set.all())
    if if_empty_before is not None and (
        seated or table.empty_since is None or table.empty_since > if_empty_before
    ):
        return None  # someone sat down since the sweep looked
    live = active_round(table) is not None
    if table.is_open:
        table.is_open = False
        table.start_at = None
        bump(table, "is_open", "start_at")
        events.to_table(
            table.pk,
            {
                "type": "table_closed",
                "table": table.pk,
                "version": table.version,
                "round_running": live,
            },
        )
    if not live:
        for seat in seated:
            remove_seat(table, seat, reason="table_closed")
    # Last, so the lobby hears it after any seat change above.
    if not table.is_private and not table.is_managed:
        events.to_lobby({"type": "table_closed", "table": table.pk})
    return table


def close_empty_tables(now: datetime | None = None) -> int:
    """The periodic sweep: close tables people left empty; stand up closed tables' players.

    Notes when each open table was first seen empty (``Table.empty_since``); one that
    stays empty for TABLE_EMPTY_CLOSE_MINUTES is closed. A closed table whose last round
    is over has its remaining seats freed.
    """
    now = now or timezone.now()
    seated = Exists(Seat.objects.filter(table=OuterRef("pk")))
    live = Exists(Round.objects.filter(table=OuterRef("pk"), state__in=LIVE_STATES))
    # A tournament's tables are its own to close (they may wait empty between its steps).
    people = Table.objects.filter(is_open=True, host__is_bot=False, stakes_in=StakesIn.XU)
    # Not service writes a client sees (no version): only the sweep's own bookkeeping.
    people.filter(seated, empty_since__isnull=False).update(empty_since=None)
    people.filter(~seated, empty_since__isnull=True).update(empty_since=now)
    cutoff = now - timedelta(minutes=settings.TABLE_EMPTY_CLOSE_MINUTES)
    due = list(people.filter(~seated, empty_since__lte=cutoff).values_list("pk", flat=True))
    closed = 0
    for table_id in due:
        try:
            closed += close_table(table_id, if_empty_before=cutoff) is not None
        except Exception:
            logger.exception("could not close empty table %s", table_id)
    # Not a managed table's: an arena table closes at its board's settlement and its players
    # stay through the summary; the tournament stands them up with its own bookkeeping
    # (their entry's table), which a seat freed here would skip.
    leftovers = Table.objects.filter(
        seated, ~live, is_open=False, stakes_in=StakesIn.XU
    ).values_list("pk", flat=True)
    for table_id in list(leftovers):
        try:
            close_table(table_id)
        except Exception:
            logger.exception("could not free the seats of closed table %s", table_id)
    return closed
