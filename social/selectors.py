"""Reads of the social app used in more than one place."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.urls import Resolver404, resolve
from django.utils import timezone

from accounts.models import User
from games.models import Connection, Seat, Table, TableInvite
from games.selectors import may_enter
from notices import selectors as notices
from notices.models import Notification, NotificationKind
from social.models import Block, Challenge, ChallengeState, FriendRequest, Friendship


def blocked_ids(user_id: int) -> set[int]:
    """The ids of the users whose messages, invitations and requests `user_id` must not see."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def block_between(user_id: int, other_ids: Iterable[int]) -> Block | None:
    """A block between ``user_id`` and one of ``other_ids``, made by either side, or None.
    One the user made comes first: their refusal may name whom they blocked."""
    others = {pk for pk in other_ids if pk != user_id}
    if not others:
        return None
    return _first_block(
        user_id, blocked=Q(blocked_id__in=others), blockers=Q(blocker_id__in=others)
    )


def block_with_seated(user_id: int, table: Table) -> Block | None:
    """``block_between`` the user and the people seated at ``table`` (and, at a private
    table, its creator), in one statement: the seats are read inside it. Every sit-down
    asks, and almost always finds none: the statement is written once (``_WITH_SEATED``;
    the ORM compiled its subqueries and ordering afresh at each sit-down, a third of its
    CPU: docs/deploy.md), and only a block found is read with its two users."""
    host = table.host_id if table.is_private else None
    params = [user_id, host, table.pk, user_id, host, table.pk, user_id]
    with connection.cursor() as cursor:
        cursor.execute(_WITH_SEATED, params)
        found = cursor.fetchone()
    if found is None:
        return None
    return Block.objects.select_related("blocker", "blocked").get(pk=found[0])


def _with_seated_sql() -> str:
    """``block_with_seated``'s statement, in ``_first_block``'s order: a block the user
    made first. Its parameters: the user, the private table's creator (NULL: none) and
    the table, for each side, then the user again."""
    blocks, seats, users = Block._meta, Seat._meta, User._meta
    blocker = blocks.get_field("blocker").column
    blocked = blocks.get_field("blocked").column
    sitter, at = seats.get_field("user").column, seats.get_field("table").column
    is_bot = users.get_field("is_bot").column
    seated = (
        f'SELECT s."{sitter}" FROM "{seats.db_table}" s'
        f' INNER JOIN "{users.db_table}" u ON u."{users.pk.column}" = s."{sitter}"'
        f' WHERE s."{at}" = %s AND NOT u."{is_bot}"'
    )
    return (
        f'SELECT b."{blocks.pk.column}" FROM "{blocks.db_table}" b'
        f' WHERE (b."{blocker}" = %s AND (b."{blocked}" = %s OR b."{blocked}" IN ({seated})))'
        f' OR (b."{blocked}" = %s AND (b."{blocker}" = %s OR b."{blocker}" IN ({seated})))'
        f' ORDER BY CASE WHEN b."{blocker}" = %s THEN 0 ELSE 1 END, b."{blocks.pk.column}"'
        " LIMIT 1"
    )


_WITH_SEATED = _with_seated_sql()


def _first_block(user_id: int, *, blocked: Q, blockers: Q) -> Block | None:
    """The first block the user made of ``blocked``, else the first by one of ``blockers``
    of the user (block_between's order)."""
    theirs_last = Case(
        When(blocker_id=user_id, then=Value(0)), default=Value(1), output_field=IntegerField()
    )
    return (
        Block.objects.filter(Q(blocker_id=user_id) & blocked | Q(blocked_id=user_id) & blockers)
        .select_related("blocker", "blocked")
        .order_by(theirs_last, "pk")
        .first()
    )


def kept_apart(a_id: int, b_id: int) -> bool:
    """A block, either way, keeps two people apart: neither sits where the other is seated,
    watches or enters a private table the other hosts or created, nor invites the other
    (docs/social.md). The one rule every guard asks (social.receivers, social.services)."""
    return block_between(a_id, [b_id]) is not None


def are_friends(a_id: int, b_id: int) -> bool:
    low, high = sorted((a_id, b_id))
    return Friendship.objects.filter(user_low_id=low, user_high_id=high).exists()


def friend_ids(user_id: int) -> set[int]:
    pairs = Friendship.objects.filter(Q(user_low_id=user_id) | Q(user_high_id=user_id))
    return {
        low if high == user_id else high
        for low, high in pairs.values_list("user_low_id", "user_high_id")
    }


@dataclass(frozen=True)
class FriendLine:
    friend: User
    online: bool
    table: Table | None
    """The table they sit at or watch (None: nowhere)."""
    can_join: bool
    """The viewer may come to that table (a private one needs an invite)."""


def friends_of(user: User) -> list[FriendLine]:
    """The user's friends, online first, with where they play (games presence)."""
    ids = friend_ids(user.pk)
    friends = User.objects.filter(pk__in=ids).order_by("display_name", "username")
    # Online: an open table socket (a Connection row, renewed while open; games.presence).
    watching = dict(
        Connection.objects.filter(user_id__in=ids)
        .order_by("-seen_at")
        .values_list("user_id", "table_id")
    )
    seated = dict(Seat.objects.filter(user_id__in=ids).values_list("user_id", "table_id"))
    table_ids = set(watching.values()) | set(seated.values())
    tables = Table.objects.in_bulk(table_ids)
    lines = []
    for friend in friends:
        table_id = seated.get(friend.pk) or watching.get(friend.pk)
        table = tables.get(table_id) if table_id else None
        lines.append(
            FriendLine(
                friend=friend,
                online=friend.pk in watching,
                table=table,
                can_join=table is not None and table.is_open and may_enter(table, user),
            )
        )
    return sorted(lines, key=lambda line: not line.online)


def incoming_requests(user: User) -> QuerySet[FriendRequest]:
    """Requests to the user, but none from someone they blocked."""
    return (
        FriendRequest.objects.filter(to_user=user)
        .exclude(from_user_id__in=Block.objects.filter(blocker=user).values("blocked_id"))
        .select_related("from_user")
        .order_by("-created_at")
    )


def outgoing_requests(user: User) -> QuerySet[FriendRequest]:
    return (
        FriendRequest.objects.filter(from_user=user)
        .select_related("to_user")
        .order_by("-created_at")
    )


def notifications_of(user: User) -> QuerySet[Notification]:
    """The user's notices as the inbox shows them: none from someone they blocked."""
    return notices.notifications_of(user, hidden_actors=_blocked_by(user))


def unread_count(user: User) -> int:
    """The inbox's one unread count (the header's), blocked senders left out."""
    return notices.unread_count(user, hidden_actors=_blocked_by(user))


def _blocked_by(user: User) -> Any:
    """A subquery of the ids ``user`` blocked."""
    return Block.objects.filter(blocker=user).values("blocked_id")


def relation(user: User, other: User) -> str:
    """How ``user`` stands to ``other``: self, blocked, friends, asked, asked_you or none."""
    if user.pk == other.pk:
        return "self"
    if Block.objects.filter(blocker=user, blocked=other).exists():
        return "blocked"
    if are_friends(user.pk, other.pk):
        return "friends"
    if FriendRequest.objects.filter(from_user=user, to_user=other).exists():
        return "asked"
    if FriendRequest.objects.filter(from_user=other, to_user=user).exists():
        return "asked_you"
    return "none"


def invitation_event(notification: Notification) -> dict[str, Any]:
    """``invitation``: a friend invites this user to a table (the API's event stream,
    docs/api.md). ``table`` is the table's id; ``url`` the link to open (a private table's
    is its host's invite link, which lets the user in)."""
    table_id: int | None = None
    with contextlib.suppress(Resolver404):
        match = resolve(notification.url)
        if "table_id" in match.kwargs:
            table_id = int(match.kwargs["table_id"])
        elif "token" in match.kwargs:
            table_id = (
                TableInvite.objects.filter(token=match.kwargs["token"])
                .values_list("table_id", flat=True)
                .first()
            )
    return {
        "type": "invitation",
        "id": notification.pk,
        "from": {
            "user": notification.actor_id,
            "name": notification.actor.shown_name if notification.actor else "",
        },
        "table": table_id,
        "table_name": notification.table_name,
        "url": notification.url,
        "at": notification.created_at.isoformat(),
    }


def open_invitations(user: User) -> list[dict[str, Any]]:
    """``invitation`` for each unread invitation to a table still open (oldest first)."""
    unread = notifications_of(user).filter(kind=NotificationKind.TABLE_INVITE, read_at__isnull=True)
    invitations = [invitation_event(n) for n in unread.order_by("created_at", "pk")]
    tables = [i["table"] for i in invitations if i["table"] is not None]
    still_open = set(Table.objects.filter(pk__in=tables, is_open=True).values_list("pk", flat=True))
    return [i for i in invitations if i["table"] in still_open]


def _party(user: User) -> dict[str, Any]:
    return {"user": user.pk, "name": user.shown_name, "is_bot": user.plays_as_bot}


def challenge_event(challenge: Challenge) -> dict[str, Any]:
    """A challenge as both its players' event streams carry it (docs/api.md):
    ``challenge`` while it waits, ``challenge_accepted`` with the ``table`` both sit at,
    ``challenge_closed`` once declined, cancelled or expired; ``version`` grows with each."""
    if challenge.state == ChallengeState.OPEN:
        head = {"type": "challenge"}
    elif challenge.state == ChallengeState.ACCEPTED:
        head = {"type": "challenge_accepted"}
    else:
        head = {"type": "challenge_closed"}
    return {
        **head,
        "id": challenge.pk,
        "version": challenge.version,
        "state": challenge.state,
        "from": _party(challenge.challenger),
        "to": _party(challenge.challenged),
        "preset": challenge.preset,
        "stake": challenge.stake,
        "rules": challenge.rules_overrides,
        "table": challenge.table_id,
        "at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
    }


def open_challenges(user: User) -> QuerySet[Challenge]:
    """The challenges to or from ``user`` still waiting for an answer, oldest first."""
    return (
        Challenge.objects.filter(Q(challenger=user) | Q(challenged=user))
        .filter(state=ChallengeState.OPEN, expires_at__gt=timezone.now())
        .select_related("challenger", "challenged")
        .order_by("created_at", "pk")
    )


def challenge_waiting(challenger: User, challenged: User) -> Challenge | None:
    """The challenge from one to the other still waiting for an answer, if any."""
    return open_challenges(challenger).filter(challenged=challenged).first()


def open_challenge_events(user: User) -> list[dict[str, Any]]:
    """``challenge`` for each challenge to or from the user still open (on connect)."""
    return [challenge_event(c) for c in open_challenges(user)]
