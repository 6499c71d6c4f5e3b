"""Who is at the table: open connections, renewed by a heartbeat, that expire.

Presence is derived, never counted: every open table socket is a ``Connection`` row whose
``seen_at`` the heartbeat of the process holding the socket renews (``games.liveness``;
a client's ``ping`` renews it too). A socket closed cleanly deletes its row; one whose
process died (kill -9, a crash, a restart) simply stops being renewed, and
``expire_connections`` (the sweeper) drops it once it is ``CONNECTION_TTL`` old. A player
is shown online while a row of theirs exists at the table, and is away at the deal when no
socket of theirs was heard for ``AWAY_AFTER``. The rows live in the database, not Redis:
the deal decides who is away inside the table's transaction, the embedded default has no
Redis, and an emptied Redis must not make every seated player look absent.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection as django_connection
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import Connection, Seat, Table
from games.selectors.rounds import active_round
from games.services.common import bump, lock_table, log, table_event
from games.services.countdown import arrived

AWAY_AFTER = timedelta(seconds=settings.PRESENCE_TIMEOUT_SECONDS)
"""A seated player none of whose sockets was heard for this long is stood up at the next deal."""
CONNECTION_TTL = AWAY_AFTER
"""A socket not renewed for this long is gone (its process renews it every third of this)."""


@transaction.atomic
def connected(user: User, table_id: int, connection_id: uuid.UUID) -> None:
    """A websocket of this user opened at this table (a seat, if any, is back).

    A socket opening is not a table command: it takes the table's lock only when it makes
    a seated player visible again (a version bump and an event). A spectator, or a player
    whose other socket (or whose killed server's unexpired row) is still there, only
    writes the row: three statements, no wait behind the table's commands. A storm of
    sockets reconnecting after a server restart is of the second kind.
    """
    hold_presence(table_id, user.pk)
    db = django_connection
    now = Connection._meta.get_field("seen_at").get_db_prep_value(timezone.now(), db)
    row_id = Connection._meta.pk.get_db_prep_value(connection_id, db)
    # Statements written once (a storm: every socket of a restarted server opens at once;
    # the ORM compiled three afresh for each): whether another socket of theirs is here
    # and whether they are seated, then the row, one statement whether or not it exists
    # (a renewal may race a ping for it).
    with db.cursor() as cursor:
        cursor.execute(_ALREADY_AND_SEATED, [table_id, user.pk, table_id, user.pk])
        already, seated = cursor.fetchone()
        cursor.execute(_OPEN, [row_id, table_id, user.pk, now, now])
    if not already and seated:
        table = lock_table(table_id)
        announce(table, user, online=True)
        arrived(table)  # a tournament's first deal waits for its newcomers (countdown)


@transaction.atomic
def disconnected(user: User, table_id: int, connection_id: uuid.UUID) -> None:
    """A websocket closed. Not a leave: the seat and the round wait for the player.

    As ``connected``, the table's lock is taken only when a seated player's last socket
    went (the table is told).
    """
    hold_presence(table_id, user.pk)
    deleted, _ = Connection.objects.filter(pk=connection_id).delete()
    if deleted and not Connection.objects.filter(table_id=table_id, user=user).exists():
        seat = Seat.objects.filter(user=user, table_id=table_id)
        if seat.exists():
            # The table first, then the seat row: the order of every table command.
            table = lock_table(table_id)
            seat.update(last_seen_at=timezone.now())
            announce(table, user, online=False)
            return
    Seat.objects.filter(user=user, table_id=table_id).update(last_seen_at=timezone.now())


def _presence_sql() -> tuple[str, str]:
    rows, seats = Connection._meta, Seat._meta
    c_table, c_user = rows.get_field("table").column, rows.get_field("user").column
    s_table, s_user = seats.get_field("table").column, seats.get_field("user").column
    opened, seen = rows.get_field("opened_at").column, rows.get_field("seen_at").column
    already_and_seated = (
        f'SELECT EXISTS(SELECT 1 FROM "{rows.db_table}"'
        f' WHERE "{c_table}" = %s AND "{c_user}" = %s),'
        f' EXISTS(SELECT 1 FROM "{seats.db_table}" WHERE "{s_table}" = %s AND "{s_user}" = %s)'
    )
    pk = rows.pk.column
    open_row = (
        f'INSERT INTO "{rows.db_table}" ("{pk}", "{c_table}", "{c_user}", "{opened}", "{seen}")'
        f" VALUES (%s, %s, %s, %s, %s)"
        f' ON CONFLICT ("{pk}") DO UPDATE SET "{seen}" = EXCLUDED."{seen}"'
    )
    return already_and_seated, open_row


_ALREADY_AND_SEATED, _OPEN = _presence_sql()


def hold_presence(table_id: int, user_id: int, *, wait: bool = True) -> bool:
    """Serialize the presence changes of one player at one table until the transaction ends.

    Whether a socket makes the player appear or disappear depends on the player's other
    rows, and rows another transaction is adding or deleting are invisible to it; holding
    this lock makes such decisions one after another. It is a PostgreSQL advisory lock on
    (table, user), never contended by the table's commands. Without ``wait`` it returns
    whether it was granted at once (the sweeper skips a player who is busy). SQLite
    serializes every writer anyway.
    """
    if django_connection.vendor != "postgresql":
        return True
    function = "pg_advisory_xact_lock" if wait else "pg_try_advisory_xact_lock"
    with django_connection.cursor() as cursor:
        # The two-int4 key space: ids folded into int4 (a collision only serializes more).
        cursor.execute(f"SELECT {function}(%s, %s)", [_int4(table_id), _int4(user_id)])
        granted = cursor.fetchone()[0]
    return wait or bool(granted)


def _int4(value: int) -> int:
    return (value + 2**31) % 2**32 - 2**31


def renew_connections(sockets: dict[uuid.UUID, tuple[int, int]]) -> None:
    """The heartbeat of a server process: its open sockets (id → user, table) are alive.

    One UPDATE for all of them; a row the sweeper already dropped (the process stalled
    past the timeout) comes back as a new connection.
    """
    now = timezone.now()
    renewed = Connection.objects.filter(pk__in=sockets).update(seen_at=now)
    if renewed < len(sockets):
        present = set(Connection.objects.filter(pk__in=sockets).values_list("pk", flat=True))
        for connection_id, (user_id, table_id) in sockets.items():
            if connection_id not in present:
                user = User.objects.filter(pk=user_id).first()
                if user is not None and Table.objects.filter(pk=table_id).exists():
                    connected(user, table_id, connection_id)


_HEARD = (
    "UPDATE games_connection SET seen_at = %s WHERE id = %s "
    "RETURNING (SELECT version FROM games_table WHERE games_table.id = games_connection.table_id)"
)


def heard_from(user: User, table_id: int, connection_id: uuid.UUID) -> int:
    """A client's ping: this socket is still open (as ``renew_connections``, for one).

    Returns the table's version now, read in the same statement: the ping's reply carries
    it, so that a client whose last event is older (a broadcast lost when its server died
    between the commit and the publish) finds out without waiting for the table's next
    event (docs/protocol.md, "Versions")."""
    db = django_connection
    with db.cursor() as cursor:
        cursor.execute(
            _HEARD,
            [
                Connection._meta.get_field("seen_at").get_db_prep_value(timezone.now(), db),
                Connection._meta.pk.get_db_prep_value(connection_id, db),
            ],
        )
        row = cursor.fetchone()
    if row is not None:
        return int(row[0])
    connected(user, table_id, connection_id)  # the sweeper dropped the row: open it again
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first() or 0


def heard_from_program(user: User) -> None:
    """A request of the open API (docs/api.md) from a player: present at their table for
    the next ``AWAY_AFTER``, as a socket's ping would keep them (a program need not hold a
    socket or a stream open to keep its seat)."""
    Seat.objects.filter(user=user).update(last_seen_at=timezone.now())


def expire_connections(now: datetime | None = None) -> int:
    """Drop the sockets not heard from for ``CONNECTION_TTL`` (their process died or hung)
    and tell each table who went offline. Returns how many players went offline."""
    cutoff = (now or timezone.now()) - CONNECTION_TTL
    stale: defaultdict[int, set[int]] = defaultdict(set)
    for table_id, user_id in Connection.objects.filter(seen_at__lt=cutoff).values_list(
        "table_id", "user_id"
    ):
        stale[table_id].add(user_id)
    gone = 0
    for table_id, user_ids in stale.items():
        with transaction.atomic():
            # A table busy (or held by a stopped worker) is left for the next sweep: one
            # table's trouble never stalls the others.
            table = (
                Table.objects.select_for_update(skip_locked=True, no_key=True)
                .filter(pk=table_id)
                .first()
            )
            if table is None:
                continue
            # A player whose socket is opening or closing right now is left for the next
            # sweep: that change decides what the table is told (``hold_presence``).
            user_ids = {u for u in user_ids if hold_presence(table_id, u, wait=False)}
            # Only rows still stale: a heartbeat renewing one meanwhile keeps it (in
            # PostgreSQL the DELETE re-checks ``seen_at`` on a row updated concurrently).
            Connection.objects.filter(
                table=table, user_id__in=user_ids, seen_at__lt=cutoff
            ).delete()
            remaining = set(
                Connection.objects.filter(table=table, user_id__in=user_ids).values_list(
                    "user_id", flat=True
                )
            )
            for user in User.objects.filter(pk__in=user_ids - remaining):
                gone += announce(table, user, online=False)
    return gone


def announce(table: Table, user: User, *, online: bool) -> bool:
    """Tell the table a seated player came or went (nothing for a spectator)."""
    seat = Seat.objects.filter(user=user, table=table).first()
    if seat is None:
        return False
    bump(table)
    table_event(table, {"type": "presence", "position": seat.position, "online": online})
    log_presence(table, user, "reconnect" if online else "disconnect")
    return True


def log_presence(table: Table, user: User, kind: str) -> None:
    """Connections that come and go during a round are part of its history (disputes)."""
    round_ = active_round(table)
    if round_ is not None:
        player = round_.players.filter(user=user).first()
        if player is not None:
            log(round_, kind, {"position": player.position}, user)


def away_players(table_id: int, seats: Sequence[Seat], now: datetime) -> set[int]:
    """The players seated at the table (user ids) none of whose sockets was heard for
    ``AWAY_AFTER`` (whether or not the sweeper has dropped them yet). One query at most,
    for all the seats whose own renewal is that old, however many they are."""
    cutoff = now - AWAY_AFTER
    # Bots have no websocket and are always present.
    quiet = {s.user_id for s in seats if not s.user.is_bot and s.last_seen_at < cutoff}
    if not quiet:
        return set()
    heard = Connection.objects.filter(
        table_id=table_id, user_id__in=quiet, seen_at__gte=now - CONNECTION_TTL
    ).values_list("user_id", flat=True)
    return quiet - set(heard)
