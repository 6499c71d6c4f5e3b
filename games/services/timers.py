"""The timers of rounds and countdowns: queued when they fall due soon, planned otherwise.

A timer task costs the worker about the same whether its step still has anything to do or
not (the broker's round trips, the hand-over to a child, the acknowledgement), and most
timers set far ahead end up with nothing to do: the players' ``ready`` deals before the
countdown runs out, everyone submits before the arranging deadline. So a timer due within
``HORIZON`` of its commit is queued then, as it always was, and one due later is left to
the planner (``plan_timers``, which beat's scheduler runs in beat's own process every
``PLAN_SECONDS``: maubinh_site/beat.py), which queues the timers of what is still due by
then, ``HORIZON`` ahead of time. The sweeper (games.services.sweeper) stays the backstop
for a timer that was never queued or was lost.

Why none is missed: the planner covers one slice of time after another, (the end of its
last slice, now + HORIZON], kept in the cache. A row it did not see was committed after its
read began, so after ``now``; a commit that leaves its timer to the planner decides so after
the commit, for a time beyond its own now + HORIZON + ``MARGIN``, which is beyond the end of
every slice already read (``MARGIN`` also covers the clocks of two hosts that differ a
little). A slice lost with the cache only starts the next one at now − the sweeper's grace:
anything older is the sweeper's. While beat is down the planner's place goes stale, and
every timer is queued at its commit again (``STALE``); those left to the planner before it
stopped are queued by its first run after it comes back, or caught up by the sweeper.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games.models import Round, RoundState, Table

HORIZON = timedelta(seconds=settings.TIMER_HORIZON_SECONDS)
"""How far ahead of its time the planner queues a timer (more than its own period, so a
planner run that comes late still queues in time)."""

PLAN_SECONDS = 1.0
"""How often beat runs the planner (maubinh_site.beat.Scheduler)."""

MARGIN = timedelta(seconds=1)
"""Left to the planner only beyond now + HORIZON + this (see the module's docstring)."""

GRACE = timedelta(seconds=1)
"""A timer more than this late is the sweeper's to catch up (sweep_due_rounds)."""

STALE = timedelta(seconds=3)
"""A planner whose last slice ends this much short of now + HORIZON has missed three runs
(beat is down or late): timers are queued at their commit until it runs again."""

PLANNED_KEY = "games:timers-planned-until"
"""The cache key of the end of the planner's last slice (an ISO time)."""


def queue_advance(round_: Round) -> None:
    """The round's next step at its deadline (``advance_round``), on commit."""
    args = (round_.pk, round_.state, round_.phase)
    eta = round_.deadline or timezone.now()
    _on_commit_if_soon(eta, lambda: _send_advance(args, eta))


def queue_start(table_id: int, when: datetime) -> None:
    """The table's countdown run out at ``when`` (``start_round_when_due``), on commit."""
    _on_commit_if_soon(when, lambda: _send_start(table_id, when))


def _on_commit_if_soon(when: datetime, send: Callable[[], None]) -> None:
    """``send`` the timer due ``when`` after the commit, unless the planner will (_soon)."""
    # robust: a broker that is away must not turn a committed command into an error for
    # the player (the sweeper advances a due round, or starts a due table, whose timer was
    # never sent).
    transaction.on_commit(lambda: send() if _soon(when) else None, robust=True)


def _soon(when: datetime) -> bool:
    """Whether a timer due ``when`` is queued now: after a commit, so that a planner read
    that missed the commit cannot have planned past ``when``; and every timer while the
    planner is not running (beat down: its last slice ends more than ``STALE`` short of
    where it would be)."""
    now = timezone.now()
    if when <= now + HORIZON + MARGIN:
        return True
    try:
        planned = _planned_until()
    except Exception:  # the cache unreachable: as if no planner ran
        planned = None
    return planned is None or planned < now + HORIZON - STALE


def _send_advance(args: tuple[int, str, int], eta: datetime) -> None:
    from games.tasks import advance_round_task

    advance_round_task.apply_async(args, eta=eta)


def _send_start(table_id: int, when: datetime) -> None:
    from games.tasks import start_round_when_due_task

    start_round_when_due_task.apply_async((table_id, when.isoformat()), eta=when)


def plan_timers(now: datetime | None = None) -> int:
    """Queue the timers of the rounds and countdowns due in the next slice of time (the end
    of the last one, now + HORIZON], each for its time; return how many were queued."""
    now = now or timezone.now()
    until = now + HORIZON
    since = max(_planned_until() or now - GRACE, now - GRACE)
    if until <= since:
        return 0
    rounds = Round.objects.filter(
        state__in=[RoundState.ARRANGING, RoundState.SHOWDOWN],
        deadline__gt=since,
        deadline__lte=until,
    ).values_list("pk", "state", "phase", "deadline")
    starts = Table.objects.filter(start_at__gt=since, start_at__lte=until).values_list(
        "pk", "start_at"
    )
    queued = 0
    for round_id, state, phase, deadline in rounds:
        assert deadline is not None  # read within a range
        _send_advance((round_id, state, phase), deadline)
        queued += 1
    for table_id, start_at in starts:
        assert start_at is not None
        _send_start(table_id, start_at)
        queued += 1
    cache.set(PLANNED_KEY, until.isoformat(), timeout=3600)
    return queued


def _planned_until() -> datetime | None:
    value = cache.get(PLANNED_KEY)
    return datetime.fromisoformat(value) if isinstance(value, str) else None
