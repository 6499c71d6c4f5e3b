"""The table's command stream: its lock, its version, its events and its round log."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.db import OperationalError, connection
from django.db.models import QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from accounts.ids import parse_id
from accounts.models import User
from core.bulk import update_each
from core.compiled import Compiled
from games import events
from games.errors import NotFound, TableBusy
from games.models import Round, RoundEvent, RoundState, Table
from games.selectors.payloads import lobby_row, scheduled
from games.selectors.private import may_enter
from games.services.writes import Writes, log_statement


def new_server_seed() -> str:
    """A fresh secret server seed (CSPRNG), committed to before each deal."""
    return secrets.token_hex(32)


def new_client_seed() -> str:
    """The client seed a player starts with; they may choose their own."""
    return secrets.token_hex(8)


LOCK_NOT_AVAILABLE = "55P03"
"""PostgreSQL's SQLSTATE for a lock not granted within ``lock_timeout``."""


def _table_lock(skip_locked: bool) -> Compiled[Table]:
    # The host comes along (lobby rows show it) without locking the host's user row.
    # FOR NO KEY UPDATE: commands still serialize on it, but a row that merely refers to
    # the table (a socket's presence row: its foreign key check takes FOR KEY SHARE) is
    # not made to wait for the table's command (FOR UPDATE would).
    def build(table_id: int) -> QuerySet[Table]:
        locking = Table.objects.select_for_update(
            of=("self",), skip_locked=skip_locked, no_key=True
        )
        return locking.select_related("host").filter(pk=table_id)

    return Compiled(build)


def _round_lock(skip_locked: bool, by_table: bool) -> Compiled[Round]:
    """The lock of lock_table and the round's lock in one statement, the round with its
    table (and the table's host) in hand: a step's first round trip.

    ``FOR NO KEY UPDATE OF`` the table, then the round: PostgreSQL locks each row the join
    returns in that order, the table first as every other command of the table does, so
    the two locks cannot deadlock with a command that takes them one at a time. Both rows
    are locked, so a statement that waited for either sees both as the holder left them
    (a row merely joined would be its version from before the wait). ``by_table``: the
    round must be this table's (a table's socket names its table)."""

    def build(round_id: int, table_id: int = 0) -> QuerySet[Round]:
        locking = Round.objects.select_for_update(
            of=("table", "self"), skip_locked=skip_locked, no_key=True
        )
        rounds = locking.select_related("table__host").filter(pk=round_id)
        return rounds.filter(table_id=table_id) if by_table else rounds

    return Compiled(build, arity=2 if by_table else 1)


# Every step of every round starts with these locks: compiled once (core.compiled).
_LOCK_TABLE = {skip: _table_lock(skip) for skip in (False, True)}
_LOCK_ROUND = {
    (skip, by_table): _round_lock(skip, by_table)
    for skip in (False, True)
    for by_table in (False, True)
}


def _pk(value: Any) -> int:
    """An id as the ORM would take it for a lookup; NotFound for what is not one (a row
    id is a positive bigint: the ORM finds nothing beyond that range either)."""
    pk = parse_id(value)  # accounts.ids: the one bound on ids from outside
    if pk is None:
        raise NotFound()
    return pk


def lock_table(table_id: Any, *, skip_locked: bool = False) -> Table:
    """Lock the table row: the lock of its whole command stream (see the module docstring).

    The wait is bounded by the connection's ``lock_timeout`` (DB_LOCK_TIMEOUT_MS): a table
    held by a stuck process answers "busy" instead of stalling the caller. With
    ``skip_locked`` a table locked by someone else is not waited for at all: NotFound.
    """
    with busy_on_lock_timeout():
        table = _LOCK_TABLE[skip_locked].first(_pk(table_id))
    if table is None:
        raise NotFound()
    return table


@contextmanager
def busy_on_lock_timeout() -> Iterator[None]:
    """A lock not granted within ``lock_timeout`` becomes TableBusy (retried by timers)."""
    try:
        yield
    except OperationalError as exc:
        if getattr(exc.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE:
            raise TableBusy() from exc
        raise


def bump(table: Table, *fields: str, writes: Writes | None = None) -> int:
    """Count one visible change of the table; every public event carries the new version.

    ``writes``: saved with the step's last writes (games.services.writes), not now."""
    table.version += 1
    if writes is not None:
        writes.update([table], ["version", *fields])
        return table.version
    # Not table.save(update_fields=…): compiling that UPDATE, at every step of every
    # round, cost more CPU than sending this one (docs/deploy.md, the cost of one round).
    update_each([table], ["version", *fields])
    return table.version


def table_event(
    table: Table,
    payload: dict[str, Any],
    *,
    lobby: bool = False,
    taken: int | None = None,
    state: str | None = None,
    audience: list[int] | None = None,
    withheld: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    later: Sequence[tuple[str, datetime, dict[str, Any]]] = (),
    later_withheld: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> None:
    """Tell the table; with ``lobby``, also the lobby (seats taken or the table's state moved).

    A caller that knows the seats taken and the table's state passes them, saving the
    lobby row their queries. With ``audience``, the users not in it get ``withheld(payload)``.
    ``later``: (key, when, payload) of events that follow this one at a set time, each
    held by the sockets until then (events.message); they carry this event's version and
    ``"scheduled": true`` (docs/protocol.md, "Reveals"); the users not in ``audience``
    get ``later_withheld`` of each.
    """
    full = {**payload, "table": table.pk, "version": table.version}
    if audience is None:  # everyone gets the same
        withheld = later_withheld = None
    ahead: list[events.Later] = []
    for key, at, then in later:
        then = scheduled(then, table.pk, table.version)
        ahead.append((key, at.timestamp(), then, later_withheld(then) if later_withheld else None))
    # A duplicate board's cards: only its audience gets them (selectors.board_audience).
    others = withheld(full) if withheld is not None else None
    events.to_table(table.pk, full, audience=audience, others=others, later=ahead)
    if lobby and not table.is_private and not table.is_managed:  # neither is listed
        events.to_lobby({"type": "table", "table": lobby_row(table, taken=taken, state=state)})


def clock_reveals(
    round_: Round, now: datetime, *, upto: int | None = None
) -> list[tuple[str, dict[str, Any], User | None]]:
    """The round log's ``reveal`` entries of the chi shown since the showdown's first step:
    those the clock has shown by ``now``, or through chi ``upto`` (a settlement shows them
    all), each with its time. They have no step of their own, so the step that ends the
    showdown (settlement, a void) writes them."""
    if round_.state != RoundState.SHOWDOWN or round_.showdown_at is None:
        return []
    last = round_.chi_shown(now) if upto is None else upto
    return [
        ("reveal", {"revealed": chi, "at": min(round_.reveal_time(chi), now).isoformat()}, None)
        for chi in range(round_.revealed + 1, last + 1)
    ]


def log(
    round_: Round,
    kind: str,
    data: dict[str, Any],
    user: User | None = None,
    *,
    writes: Writes | None = None,
) -> None:
    log_many(round_, [(kind, data, user)], writes=writes)


def log_many(
    round_: Round,
    entries: list[tuple[str, dict[str, Any], User | None]],
    *,
    first: bool = False,
    writes: Writes | None = None,
) -> None:
    """Append entries to the round log in one INSERT, numbered after the last one
    (``writes``: with the step's last writes, games.services.writes).

    The numbers are computed inside the INSERT (one round trip, however many entries):
    the table lock held by every caller keeps two writers from taking the same number.
    ``first``: the round has no entry yet (its deal), so the numbering starts at 1 unread
    (where the ORM writes the log; PostgreSQL's statement reads the empty range anyway).
    """
    if writes is not None:
        writes.log(round_, entries, first=first)
        return
    if connection.vendor == "postgresql":
        # The log is written at every step of every round: a statement written once costs
        # a fraction of the CPU the ORM spends compiling a subquery per entry (or, at the
        # deal, building its bulk INSERT).
        with connection.cursor() as cursor:
            cursor.execute(*log_statement(round_, entries))
        return
    if first:
        seqs: list[Any] = list(range(1, len(entries) + 1))
    else:
        last = RoundEvent.objects.filter(round=round_).order_by("-seq").values("seq")[:1]
        seqs = [Coalesce(Subquery(last), Value(0)) + Value(i) for i in range(1, len(entries) + 1)]
    RoundEvent.objects.bulk_create(
        RoundEvent(round=round_, seq=seq, kind=kind, user=user, data=data)
        for seq, (kind, data, user) in zip(seqs, entries, strict=True)
    )


def lock_round(
    round_id: Any, table_id: int | None = None, *, skip_locked: bool = False
) -> tuple[Table, Round]:
    """Lock the round's table, then the round (one statement: ``_round_lock``). With
    ``table_id`` (a table's socket), a round of another table is refused as not the
    caller's. ``skip_locked``: see lock_table."""
    round_pk = _pk(round_id)
    args = (round_pk,) if table_id is None else (round_pk, _pk(table_id))
    with busy_on_lock_timeout():
        round_ = _LOCK_ROUND[skip_locked, table_id is not None].first(*args)
    if round_ is None:
        if table_id is not None and not skip_locked and Round.objects.filter(pk=round_pk).exists():
            raise NotFound(_("You are not playing in this round."), code="not_in_round")
        raise NotFound()
    return round_.table, round_


def shut_out_barred(table: Table, user_ids: Iterable[int], reason: str) -> list[int]:
    """Of these users, those who may no longer be at this private table (``may_enter``, as
    the change in this transaction leaves it) have their table sockets (and the table talk
    on them) closed with 4403 once it commits. Returns their ids.

    One mechanism for every way out of a private table but a removal (a revoked link, a
    block, standing up with no other way in); a socket that has just passed its own check
    is closed by its snapshot's check (games.consumers), so none slips between the two."""
    if not table.is_private:
        return []
    barred = [
        user.pk for user in User.objects.filter(pk__in=list(user_ids)) if not may_enter(table, user)
    ]
    for user_id in barred:
        events.shut_out(table.pk, user_id, reason)
    return barred
