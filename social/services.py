"""Every write of the social app: one transaction each.

Two people's rows are locked in id order before anything between them changes: a request
sent both ways at once, or accepted twice, then meets one state; and the sender's row is
one of them, so their sends are counted against their hourly limit one after the other
(docs/social.md).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import events
from games.errors import GameError
from games.models import Connection, Seat, Table
from games.selectors import is_acting_host
from games.services import private
from games.services.common import shut_out_barred
from notices import services as notices
from notices.models import Notification, NotificationKind
from social.errors import NotFound, SocialError
from social.models import (
    Block,
    FriendRequest,
    Friendship,
    Sent,
    SentKind,
)
from social.receivers import refusal_to_invite
from social.selectors import are_friends, block_between, invitation_event

SEND_WINDOW = timedelta(hours=1)


def _lock_pair(a: User, b: User) -> None:
    """Lock both users' rows, smaller id first (no deadlock between the two orders).

    FOR NO KEY UPDATE: social writes queue on it, but a row that merely refers to one of
    them (a seat, a round's log, a socket's presence) is not made to wait."""
    list(User.objects.select_for_update(no_key=True).filter(pk__in=[a.pk, b.pk]).order_by("pk"))


def _ordered(a: User, b: User) -> tuple[User, User]:
    return (a, b) if a.pk < b.pk else (b, a)


def _count_send(sender: User, kind: str) -> None:
    """Count a friend request or a table invitation against the sender's limit per rolling
    hour, or refuse it saying when they may try again. The caller holds the sender's row
    (``_lock_pair``): two sends at once are counted one after the other."""
    limit = {
        SentKind.FRIEND_REQUEST: settings.SOCIAL_REQUESTS_PER_HOUR,
        SentKind.TABLE_INVITE: settings.SOCIAL_INVITES_PER_HOUR,
    }[SentKind(kind)]
    now = timezone.now()
    sent = Sent.objects.filter(sender=sender, kind=kind)
    sent.filter(created_at__lte=now - SEND_WINDOW).delete()  # out of the window: forgotten
    recent = list(sent.order_by("created_at").values_list("created_at", flat=True))
    if len(recent) >= limit:
        # The moment enough of them leave the window for one more (to the next minute).
        again = recent[len(recent) - limit] + SEND_WINDOW + timedelta(seconds=59)
        at = formats.time_format(timezone.localtime(again), "H:i")
        if kind == SentKind.FRIEND_REQUEST:
            message = _(
                "You have sent %(n)s friend requests in the last hour, the most allowed."
                " Try again at %(time)s."
            )
        else:
            message = _(
                "You have sent %(n)s table invitations in the last hour, the most allowed."
                " Try again at %(time)s."
            )
        raise SocialError(message, code="rate_limited", n=limit, time=at)
    Sent.objects.create(sender=sender, kind=kind, created_at=now)


def _befriend(a: User, b: User) -> Friendship:
    low, high = _ordered(a, b)
    friendship, _created = Friendship.objects.get_or_create(user_low=low, user_high=high)
    FriendRequest.objects.filter(from_user__in=[a, b], to_user__in=[a, b]).delete()
    return friendship


@transaction.atomic
def send_friend_request(sender: User, receiver: User) -> FriendRequest | Friendship:
    """Ask ``receiver`` to be friends; if they already asked ``sender``, they are friends now."""
    if sender.pk == receiver.pk:
        raise SocialError(_("You cannot befriend yourself."), code="friend_self")
    if receiver.is_bot or not receiver.is_active:
        raise SocialError(_("This player cannot receive friend requests."), code="not_a_person")
    _lock_pair(sender, receiver)
    if are_friends(sender.pk, receiver.pk):
        raise SocialError(
            _("You are already friends with %(name)s."), code="already_friends",
            name=receiver.shown_name,
        )  # fmt: skip
    _ensure_not_blocking(sender, receiver)
    if FriendRequest.objects.filter(from_user=receiver, to_user=sender).exists():
        friendship = _befriend(sender, receiver)
        notices.renew_or_notify(receiver, NotificationKind.FRIEND_ACCEPTED, sender)
        return friendship
    request, created = FriendRequest.objects.get_or_create(from_user=sender, to_user=receiver)
    if created:
        # Counted even when the receiver blocked the sender: the sender is not told.
        _count_send(sender, SentKind.FRIEND_REQUEST)
    # A player who blocked the sender is not told (social.selectors hides it, too).
    if created and not Block.objects.filter(blocker=receiver, blocked=sender).exists():
        notices.renew_or_notify(receiver, NotificationKind.FRIEND_REQUEST, sender)
    return request


def _ensure_not_blocking(user: User, other: User) -> None:
    if Block.objects.filter(blocker=user, blocked=other).exists():
        raise SocialError(
            _("You blocked %(name)s. Unblock them first."), code="you_blocked",
            name=other.shown_name,
        )  # fmt: skip


def _request_to(user: User, request_id: int) -> FriendRequest:
    request = FriendRequest.objects.filter(pk=request_id, to_user=user).first()
    if request is None:
        raise NotFound(_("This friend request no longer exists."), code="request_gone")
    return request


@transaction.atomic
def accept_friend_request(user: User, request_id: int) -> Friendship:
    request = _request_to(user, request_id)
    sender = request.from_user
    _lock_pair(user, sender)
    # Re-read under the lock: a second click (or the other tab) finds it already accepted.
    if not FriendRequest.objects.filter(pk=request_id).exists():
        if are_friends(user.pk, sender.pk):
            return Friendship.objects.get(
                user_low=min(user.pk, sender.pk), user_high=max(user.pk, sender.pk)
            )
        raise NotFound(_("This friend request no longer exists."), code="request_gone")
    _ensure_not_blocking(user, sender)
    friendship = _befriend(user, sender)
    notices.renew_or_notify(sender, NotificationKind.FRIEND_ACCEPTED, user)
    return friendship


@transaction.atomic
def refuse_friend_request(user: User, request_id: int) -> None:
    """The sender is not told; they may ask again later."""
    FriendRequest.objects.filter(pk=request_id, to_user=user).delete()


@transaction.atomic
def cancel_friend_request(user: User, receiver: User) -> None:
    FriendRequest.objects.filter(from_user=user, to_user=receiver).delete()


@transaction.atomic
def remove_friend(user: User, friend: User) -> None:
    _lock_pair(user, friend)
    low, high = _ordered(user, friend)
    Friendship.objects.filter(user_low=low, user_high=high).delete()


@transaction.atomic
def block_user(blocker: User, blocked: User) -> Block:
    """`blocker` stops seeing `blocked`; blocking ends a friendship and the requests between
    them. Blocking twice is the same as once."""
    if blocker.pk == blocked.pk:
        raise SocialError(_("You cannot block yourself."), code="block_self")
    _lock_pair(blocker, blocked)
    block, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
    low, high = _ordered(blocker, blocked)
    Friendship.objects.filter(user_low=low, user_high=high).delete()
    FriendRequest.objects.filter(
        from_user__in=[blocker, blocked], to_user__in=[blocker, blocked]
    ).delete()
    _shut_out_of_private_tables(blocker, blocked)
    return block


def _shut_out_of_private_tables(a: User, b: User) -> None:
    """Whichever of the two watches a private table the other hosts or created, without a
    seat there, has its sockets closed once the block commits (a seated one stays: a block
    stands nobody up; the host may remove them between rounds)."""
    tables = (
        Connection.objects.filter(user__in=[a, b], table__is_private=True, table__is_open=True)
        .values_list("table_id", flat=True)
        .distinct()
    )
    for table in Table.objects.filter(pk__in=list(tables)):
        shut_out_barred(table, [a.pk, b.pk], "blocked")


@transaction.atomic
def unblock_user(blocker: User, blocked: User) -> None:
    """Lift a block; lifting one that does not exist changes nothing."""
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


@transaction.atomic
def invite_to_table(user: User, friend: User) -> Notification:
    """Tell a friend, with a link, to come to the table the user sits at.

    A private table's link is its host's current invite link, so only its host invites
    there. Nobody invites someone a block keeps them apart from (either way).
    """
    if user.pk == friend.pk:
        raise SocialError(_("You can invite only your friends."), code="not_friends")
    _lock_pair(user, friend)  # a block or an unfriending at the same moment waits
    if not are_friends(user.pk, friend.pk):
        raise SocialError(_("You can invite only your friends."), code="not_friends")
    block = block_between(user.pk, [friend.pk])  # (a block ends a friendship, too)
    if block is not None:
        raise SocialError(refusal_to_invite(user, block), code="invite_refused")
    seat = Seat.objects.filter(user=user).select_related("table").first()
    if seat is None:
        raise SocialError(_("Sit at a table first, then invite your friends."), code="not_seated")
    table = seat.table
    try:
        private.ensure_hosted(table)  # a tournament seats its own players: nobody invites
    except GameError as exc:
        raise SocialError(exc.message, code=exc.code) from exc
    if table.is_private:
        if not is_acting_host(table, user):
            raise SocialError(
                _("Only the host invites people to a private table."), code="not_host"
            )
        try:
            invite = private.current_invite(user, table.pk)
        except GameError as exc:
            raise SocialError(exc.message, code=exc.code) from exc
        url = reverse("games:invite", kwargs={"token": invite.token})
    else:
        url = reverse("games:table", kwargs={"table_id": table.pk})
    _count_send(user, SentKind.TABLE_INVITE)
    # Inviting again before the friend has read it renews that invitation: no pile of them.
    notification = notices.renew_or_notify(
        friend, NotificationKind.TABLE_INVITE, user, table_name=table.name, url=url
    )
    events.to_user(friend.pk, invitation_event(notification))  # the API's event stream
    return notification
