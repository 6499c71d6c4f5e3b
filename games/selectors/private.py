"""Private tables: who hosts, who may come in (docs/social.md).

Also who counts as staff at a table (``is_staff``), and the question every table's door
asks the apps built on games (``games.signals.watch_requested``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.roles import is_admin, is_moderator
from games.models import Seat, SeatHold, Table, TableGuest, TableInvite
from games.selectors.tables import seats_with_users


def acting_host_id(table: Table, seated: Sequence[Seat] | None = None) -> int | None:
    """The host: the creator while seated here; when not, the person (not a bot) seated
    longest; with no person seated, the creator again. Derived, never stored, so a host
    leaving hands the powers on with no write and no race. A managed table (a tournament's:
    its owner seats the players and deals) has no host: None, and no host powers for anyone
    (``games.services.private.ensure_hosted``). ``seated``: the table's seats with their
    users, when the caller has them (read here otherwise)."""
    if table.is_managed:
        return None
    seats = seats_with_users(table) if seated is None else seated
    people = [
        s.user_id for s in sorted(seats, key=lambda s: (s.joined_at, s.pk)) if not s.user.is_bot
    ]
    if table.host_id in people or not people:
        return table.host_id
    return people[0]


def is_acting_host(table: Table, user: User, seated: Sequence[Seat] | None = None) -> bool:
    """Whether ``user`` hosts ``table`` now (``acting_host_id``; ``seated`` as there)."""
    return user.is_authenticated and acting_host_id(table, seated) == user.pk


def valid_invites(table: Table, now: Any = None) -> QuerySet[TableInvite]:
    now = now or timezone.now()
    return table.invites.filter(revoked_at__isnull=True, expires_at__gt=now)


def active_holds(table: Table, now: Any = None) -> QuerySet[SeatHold]:
    return table.holds.filter(until__gt=now or timezone.now())


def held_seats(table: Table, *, for_others_than: User | None = None) -> int:
    """Free seats the host keeps for invited friends (all, or all but this user's)."""
    holds = active_holds(table)
    if for_others_than is not None:
        holds = holds.exclude(user=for_others_than)
    return holds.count()


@dataclass(frozen=True)
class Room:
    """A table's seats as a sit-down sees them (``seat_room``)."""

    taken: frozenset[int]
    """The positions taken."""
    holding: frozenset[int]
    """Whom the host keeps a seat for now (SeatHold not expired)."""
    held_rows: frozenset[int]
    """Everyone with a SeatHold row at the table, expired or not."""

    def held_for_others_than(self, user_id: int) -> int:
        """``held_seats(table, for_others_than=user)``, from this read."""
        return len(self.holding - {user_id})


def seat_room(table_id: int) -> Room:
    """The seats taken and the seats held at a table, in one statement written once
    (every sit-down reads them: three statements the ORM compiled afresh each time)."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    taken: set[int] = set()
    holding: set[int] = set()
    rows: set[int] = set()
    with connection.cursor() as cursor:
        cursor.execute(_ROOM_SQL, [table_id, now, table_id])
        for kind, value, active in cursor.fetchall():
            if kind == 0:
                taken.add(value)
                continue
            rows.add(value)
            if active:
                holding.add(value)
    return Room(frozenset(taken), frozenset(holding), frozenset(rows))


def _room_sql() -> str:
    seats, holds = Seat._meta, SeatHold._meta
    position, at = seats.get_field("position").column, seats.get_field("table").column
    holder, held_at = holds.get_field("user").column, holds.get_field("table").column
    until = holds.get_field("until").column
    return (
        f'SELECT 0, "{position}", 0 FROM "{seats.db_table}" WHERE "{at}" = %s'
        f' UNION ALL SELECT 1, "{holder}", CASE WHEN "{until}" > %s THEN 1 ELSE 0 END'
        f' FROM "{holds.db_table}" WHERE "{held_at}" = %s'
    )


_ROOM_SQL = _room_sql()


def may_enter(table: Table, user: User) -> bool:
    """A public table: anyone. A private one: its host and creator, whoever sits there,
    staff, a friend a seat is held for, and whoever opened a valid invite link and was not
    removed by the host since, unless another app keeps them out (social: a block between
    them and the host or creator). A managed table (a tournament's) may keep people out
    (``games.signals.watch_requested``: an arena's board), never staff."""
    if table.is_managed and not _watch_allowed(table, user):
        return False
    if not table.is_private:
        return True
    if not user.is_authenticated:
        return False
    if user.pk == table.host_id or is_staff(user):
        return True
    # Seated: they stay (a block made while both sit at one table stands nobody up; the
    # host may remove them between rounds: docs/social.md).
    if _seated(table, user):
        return True
    if entry_refusal(table, user) is not None:
        return False
    return _asked_in(table, user)


def _watch_allowed(table: Table, user: User) -> bool:
    if user.is_authenticated and is_staff(user):
        return True
    return entry_refusal(table, user) is None


def entry_refusal(table: Table, user: User) -> str | None:
    """Why another app keeps ``user`` out of ``table`` (``games.signals.watch_requested``),
    or None: the receivers' reason, else a neutral one."""
    from games.signals import watch_requested

    for _receiver, said in watch_requested.send(sender=Table, table=table, user=user):
        answer: object = said  # receivers return False, True, None or a reason
        if answer is None or answer is True:
            continue
        if answer:
            return str(answer)
        return str(_("You cannot join this table."))
    return None


def is_staff(user: User) -> bool:
    """A moderator or an admin in good standing (accounts.roles)."""
    return is_moderator(user) or is_admin(user)


def enters_as_staff(table: Table, user: User) -> bool:
    """Staff coming to a private table only by their role: moderation audits the visit."""
    return (
        table.is_private
        and user.pk != table.host_id
        and is_staff(user)
        and not _seated(table, user)
        and not _asked_in(table, user)
    )


def _seated(table: Table, user: User) -> bool:
    return table.seat_set.filter(user=user).exists()


def _asked_in(table: Table, user: User) -> bool:
    """Let in as a player who is not seated: a bot the host asked for, a held seat or a
    valid link."""
    if user.is_bot and table.allow_bots:
        return True  # the host asked for bots at this table
    if active_holds(table).filter(user=user).exists():
        return True
    guest = TableGuest.objects.filter(table=table, user=user).select_related("invite").first()
    if guest is None or guest.removed_at is not None or guest.invite is None:
        return False
    invite = guest.invite
    return invite.revoked_at is None and invite.expires_at > timezone.now()
