"""Every write of the social app: one transaction each.

Two people's rows are locked in id order before anything between them changes: a request
sent both ways at once, or accepted twice, then meets one state; and the sender's row is
one of them, so their sends are counted against their hourly limit one after the other
(docs/social.md).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import SeatRefused
from accounts.models import User
from accounts.services import ensure_can_sit
from games import events
from games import services as games
from games.errors import GameError
from games.models import Connection, Seat, Table
from games.selectors import is_acting_host
from games.services import private
from games.services.common import shut_out_barred
from games.services.tables import MIN_BALANCE_STAKES, valid_rules
from ledger import selectors as ledger_selectors
from ledger.formats import Xu
from notices import services as notices
from notices.models import Notification, NotificationKind
from social.errors import NotFound, SocialError
from social.models import (
    Block,
    Challenge,
    ChallengeState,
    FriendRequest,
    Friendship,
    Sent,
    SentKind,
)
from social.receivers import refusal_to_invite
from social.selectors import are_friends, block_between, challenge_event, invitation_event

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
        SentKind.CHALLENGE: settings.SOCIAL_CHALLENGES_PER_HOUR,
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
        elif kind == SentKind.TABLE_INVITE:
            message = _(
                "You have sent %(n)s table invitations in the last hour, the most allowed."
                " Try again at %(time)s."
            )
        else:
            message = _(
                "You have sent %(n)s challenges in the last hour, the most allowed."
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
    for waiting in Challenge.objects.filter(
        challenger__in=[blocker, blocked],
        challenged__in=[blocker, blocked],
        state=ChallengeState.OPEN,
    ).select_for_update():
        _close(waiting, ChallengeState.CANCELLED)  # a block answers them
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


# --- Challenges: one player asks another to a heads-up table (docs/social.md#challenges) ---


def _challengeable(challenger: User, challenged: User) -> None:
    """Why ``challenger`` may not challenge ``challenged`` now, as a SocialError."""
    if challenger.pk == challenged.pk:
        raise SocialError(_("You cannot challenge yourself."), code="challenge_self")
    # The site's own bots come to tables that let them in; they take no challenges. A bot
    # account does: its table lets bots in (accept_challenge).
    if challenged.is_bot or not challenged.is_active:
        raise SocialError(
            _("%(name)s cannot be challenged."), code="not_challengeable",
            name=challenged.shown_name,
        )  # fmt: skip
    block = block_between(challenger.pk, [challenged.pk])
    if block is not None:
        if block.blocker_id == challenger.pk:
            raise SocialError(
                _("You blocked %(name)s. Unblock them first."), code="you_blocked",
                name=challenged.shown_name,
            )  # fmt: skip
        # The one blocked is not told they are: the same words as for anyone unavailable.
        raise SocialError(
            _("You cannot challenge %(name)s."), code="challenge_refused",
            name=challenged.shown_name,
        )  # fmt: skip


def _afford(user: User, stake: int) -> None:
    """The table a challenge opens asks what every table asks: MIN_BALANCE_STAKES stakes."""
    minimum = MIN_BALANCE_STAKES * stake
    balance = ledger_selectors.balance(user)
    if balance < minimum:
        raise SocialError(
            _("A challenge at this stake needs at least %(minimum)s xu; you have %(balance)s xu."),
            code="balance_too_low",
            minimum=Xu(minimum),
            balance=Xu(balance),
        )


def _sent(challenge: Challenge) -> None:
    """Tell both players after the commit (their event streams), the newest state."""
    payload = challenge_event(challenge)
    for user_id in (challenge.challenger_id, challenge.challenged_id):
        events.to_user(user_id, payload)


@transaction.atomic
def challenge(
    challenger: User,
    challenged: User,
    *,
    preset: str,
    stake: int,
    rules_overrides: dict[str, Any] | None = None,
) -> Challenge:
    """Challenge one player to a heads-up table at ``stake`` xu a chi with these rules
    (already through ``social.forms.ChallengeForm``). Challenging them again while the
    first still waits answers with the first (a double click challenges once)."""
    _challengeable(challenger, challenged)
    _lock_pair(challenger, challenged)  # a block or a second challenge at once waits
    _challengeable(challenger, challenged)  # a block made while we waited
    expire_challenges(user_ids=[challenger.pk, challenged.pk])
    waiting = Challenge.objects.filter(
        challenger=challenger, challenged=challenged, state=ChallengeState.OPEN
    ).first()
    if waiting is not None:
        return waiting
    try:
        ensure_can_sit(challenger)
    except SeatRefused as exc:
        raise SocialError(exc.message, code=exc.code) from exc
    overrides = valid_rules(preset, rules_overrides)
    _afford(challenger, stake)
    most = settings.CHALLENGES_OPEN_PER_USER
    if Challenge.objects.filter(challenger=challenger, state=ChallengeState.OPEN).count() >= most:
        raise SocialError(
            _("You already have %(n)s challenges waiting for an answer, the most allowed."),
            code="too_many_challenges",
            n=most,
        )
    _count_send(challenger, SentKind.CHALLENGE)
    now = timezone.now()
    made = Challenge.objects.create(
        challenger=challenger,
        challenged=challenged,
        preset=preset,
        stake=stake,
        rules_overrides=overrides,
        created_at=now,
        expires_at=now + timedelta(minutes=settings.CHALLENGE_EXPIRY_MINUTES),
    )
    notices.renew_or_notify(
        challenged,
        NotificationKind.CHALLENGE,
        challenger,
        params={"challenge": made.pk, "stake": stake, "preset": preset},
    )
    _sent(made)
    return made


def _locked(user: User, challenge_id: int, *, as_challenger: bool) -> Challenge:
    """The challenge to (or from) ``user``, its row locked: two answers at once (two tabs,
    a double click, the sweeper) meet one state, one after the other."""
    mine = {"challenger": user} if as_challenger else {"challenged": user}
    found = (
        # Only the challenge's row (not its players', which the join would lock too).
        Challenge.objects.select_for_update(of=("self",))
        .filter(pk=challenge_id, **mine)
        .select_related("challenger", "challenged")
        .first()
        if 0 < challenge_id < 2**63
        else None
    )
    if found is None:
        raise NotFound(_("This challenge does not exist."), code="not_found")
    if found.state == ChallengeState.OPEN and found.expires_at <= timezone.now():
        raise SocialError(_("This challenge has expired."), code="challenge_expired")
    return found


def _answered(challenge: Challenge) -> SocialError:
    if challenge.state == ChallengeState.EXPIRED:
        return SocialError(_("This challenge has expired."), code="challenge_expired")
    return SocialError(
        _("This challenge was already answered: %(state)s."),
        code="already_answered",
        state=challenge.get_state_display(),
    )


def _close(challenge: Challenge, state: str, table: Table | None = None) -> Challenge:
    challenge.state = state
    challenge.table = table
    challenge.answered_at = timezone.now()
    challenge.version += 1
    challenge.save(update_fields=["state", "table", "answered_at", "version"])
    Notification.objects.filter(
        user_id=challenge.challenged_id,
        kind=NotificationKind.CHALLENGE,
        params__challenge=challenge.pk,
        read_at__isnull=True,
    ).update(read_at=challenge.answered_at)  # answered: nothing left to read
    _sent(challenge)
    return challenge


def accept_challenge(user: User, challenge_id: int) -> Challenge:
    """Open the challenge's table (the lobby's own service: private, two seats, the
    challenger seated) and seat ``user`` there, in one transaction: both sit, or nothing
    changed. Accepting again answers with the same table."""
    _expire_one(challenge_id)
    with transaction.atomic():
        found = _locked(user, challenge_id, as_challenger=False)
        if found.state == ChallengeState.ACCEPTED:
            return found  # a second click, a replay: the same table
        if found.state != ChallengeState.OPEN:
            raise _answered(found)
        # A block made since cancelled it (block_user, under this row's lock).
        challenger = found.challenger
        name = f"{challenger.shown_name} – {user.shown_name}"[:60]
        try:
            table = games.open_table(
                challenger,
                sit_down=True,
                name=name,
                preset=found.preset,
                stake=found.stake,
                seats=2,
                rules_overrides=found.rules_overrides,
                # A bot account sits only where bots are let in (games.services.seats).
                allow_bots=challenger.is_api_bot or user.is_api_bot,
                is_private=True,
            )
        except GameError as exc:
            raise SocialError(
                _("%(name)s cannot sit down at a new table now: %(why)s"),
                code="challenger_unavailable",
                name=challenger.shown_name,
                why=exc.message,
            ) from exc
        # The seat kept for the one challenged lets them in to the private table.
        private.hold_seat(challenger, table.pk, user)
        games.sit(user, table.pk)
        return _close(found, ChallengeState.ACCEPTED, table)


def decline_challenge(user: User, challenge_id: int) -> Challenge:
    """The challenger is told (their event stream); declining twice is declining once."""
    return _answer(user, challenge_id, ChallengeState.DECLINED, as_challenger=False)


def cancel_challenge(user: User, challenge_id: int) -> Challenge:
    """The challenger takes it back; cancelling twice is cancelling once."""
    return _answer(user, challenge_id, ChallengeState.CANCELLED, as_challenger=True)


def _answer(user: User, challenge_id: int, state: str, *, as_challenger: bool) -> Challenge:
    _expire_one(challenge_id)
    with transaction.atomic():
        found = _locked(user, challenge_id, as_challenger=as_challenger)
        if found.state == state:
            return found
        if found.state != ChallengeState.OPEN:
            raise _answered(found)
        return _close(found, state)


def _expire_one(challenge_id: int) -> None:
    """Close this challenge first if its time is up (its own transaction: the refusal that
    follows rolls nothing of it back)."""
    if 0 < challenge_id < 2**63:
        expire_challenges(ids=[challenge_id])


@transaction.atomic
def expire_challenges(*, ids: list[int] | None = None, user_ids: list[int] | None = None) -> int:
    """Close the open challenges whose time is up (all, these, or these players'): the
    sweeper's task every 30 s, and each read or answer first. Returns how many."""
    due = Challenge.objects.filter(state=ChallengeState.OPEN, expires_at__lte=timezone.now())
    if ids is not None:
        due = due.filter(pk__in=ids)
    if user_ids is not None:
        due = due.filter(Q(challenger_id__in=user_ids) | Q(challenged_id__in=user_ids))
    # SKIP LOCKED: one being answered right now is the answer's to close.
    closed = 0
    for found in due.select_for_update(skip_locked=True).order_by("pk"):
        _close(found, ChallengeState.EXPIRED)
        closed += 1
    return closed
