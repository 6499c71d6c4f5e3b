"""Private tables: invite links, admission, seats held for friends, the host's removals.

The host is ``games.selectors.acting_host_id`` (the creator while seated, else the person
seated longest). Every write locks the table row first, like every other table command,
so a removal never meets a deal halfway and two hosts' clicks queue (docs/social.md).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.errors import GameError, NotFound
from games.models import Seat, SeatHold, Table, TableGuest, TableInvite
from games.selectors.private import acting_host_id, entry_refusal, held_seats, may_enter
from games.selectors.rounds import active_round
from games.services.common import lock_table, shut_out_barred
from games.services.countdown import schedule_auto_start
from games.services.seats import remove_seat, sit
from games.signals import invite_requested

TOKEN_BYTES = 24  # secrets.token_urlsafe: 32 characters, 192 bits


def ensure_hosted(table: Table) -> None:
    """Refuse every host power at a managed table (a tournament's, sit-and-go or arena):
    its owner seats the players, moves them and deals, so nobody hosts it. No invite links,
    no held seats, no removals, no Start, no host page, no "invite to my table" (social).
    The one check of that rule; ``_ensure_host`` and every other host path call it."""
    if table.is_managed:
        raise GameError(
            _(
                "This is a tournament's table: the tournament seats its players and deals "
                "its rounds, so it has no host, no invitations and no seats to hold."
            ),
            code="managed_table",
        )


def _ensure_host(table: Table, user: User) -> None:
    ensure_hosted(table)
    if acting_host_id(table) != user.pk:
        raise GameError(_("Only the table's host can do this."), code="not_host")


@transaction.atomic
def create_invite(user: User, table_id: int) -> TableInvite:
    """A new invite link to the table, valid TABLE_INVITE_HOURS unless revoked."""
    table = lock_table(table_id)
    _ensure_host(table, user)
    if not table.is_open:
        raise GameError(_("This table is closed."), code="table_closed")
    return TableInvite.objects.create(
        table=table,
        token=secrets.token_urlsafe(TOKEN_BYTES),
        created_by=user,
        expires_at=timezone.now() + timedelta(hours=settings.TABLE_INVITE_HOURS),
    )


@transaction.atomic
def current_invite(user: User, table_id: int) -> TableInvite:
    """The host's newest valid link, or a new one (the friends page's "invite" uses it)."""
    table = lock_table(table_id)
    _ensure_host(table, user)
    invite = (
        table.invites.filter(revoked_at__isnull=True, expires_at__gt=timezone.now())
        .order_by("-expires_at")
        .first()
    )
    return invite if invite is not None else create_invite(user, table_id)


@transaction.atomic
def revoke_invite(user: User, invite_id: int) -> TableInvite:
    """The link lets nobody in any more, nor anyone it let in who has not sat down (and
    has no other way in): their open sockets are closed after the commit."""
    invite = TableInvite.objects.filter(pk=invite_id).first()
    if invite is None:
        raise NotFound()
    table = lock_table(invite.table_id)
    _ensure_host(table, user)
    invite = TableInvite.objects.get(pk=invite_id)
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
        # Those the link let in (the newest link they opened is the one that counts).
        let_in = TableGuest.objects.filter(table=table, invite=invite, removed_at__isnull=True)
        shut_out_barred(table, let_in.values_list("user_id", flat=True), "invite_revoked")
    return invite


def usable_invite(token: str) -> TableInvite:
    """The invite of this token, or why it cannot be used (a GameError)."""
    invite = (
        TableInvite.objects.filter(token=token).select_related("table", "table__host").first()
        if isinstance(token, str) and 0 < len(token) <= 64
        else None
    )
    if invite is None:
        raise GameError(_("This invite link does not exist."), code="invite_unknown")
    if invite.revoked_at is not None:
        raise GameError(_("The host has revoked this invite link."), code="invite_revoked")
    if invite.expires_at <= timezone.now():
        raise GameError(_("This invite link has expired."), code="invite_expired")
    if not invite.table.is_open:
        raise GameError(_("This table is closed."), code="table_closed")
    ensure_hosted(invite.table)  # a link made before its table was managed lets nobody in
    return invite


@transaction.atomic
def admit(user: User, token: str) -> Table:
    """Let the user in to the table of a valid invite link (they may then watch and sit)."""
    invite = usable_invite(token)
    table = lock_table(invite.table_id)
    guest = TableGuest.objects.filter(table=table, user=user).first()
    if guest is not None and guest.removed_at is not None:
        raise GameError(
            _("The host removed you from this table; this link does not let you back."),
            code="removed_by_host",
        )
    # A link lets nobody in whom another app keeps out (social: a block between them and
    # the host or creator); the one refused is told only what they may know.
    refusal = entry_refusal(table, user)
    if refusal is not None and user.pk != table.host_id:
        raise GameError(refusal, code="join_refused")
    if guest is None:
        TableGuest.objects.create(table=table, user=user, invite=invite)
    elif guest.invite_id != invite.pk:
        guest.invite = invite  # the newest link they used is the one that counts
        guest.save(update_fields=["invite"])
    return table


@transaction.atomic
def sit_by_invite(user: User, token: str) -> Seat:
    table = admit(user, token)
    return sit(user, table.pk)


@transaction.atomic
def hold_seat(host: User, table_id: int, friend: User) -> SeatHold:
    """Keep a free seat for ``friend`` TABLE_SEAT_HOLD_MINUTES; it lets them in, too."""
    table = lock_table(table_id)
    _ensure_host(table, host)
    if friend.pk == host.pk or friend.is_bot:
        raise GameError(_("Hold a seat for someone you invite."), code="bad_hold")
    if not table.is_open:
        raise GameError(_("This table is closed."), code="table_closed")
    if Seat.objects.filter(table=table, user=friend).exists():
        raise GameError(
            _("%(name)s is already seated here."), code="already_seated", name=friend.shown_name
        )
    for _receiver, reason in invite_requested.send(
        sender=Table, host=host, user=friend, table=table
    ):
        if reason:
            raise GameError(str(reason), code="invite_refused")
    SeatHold.objects.filter(table=table, user=friend).delete()  # renewing restarts the clock
    free = table.seats - table.seat_set.count()
    if free - held_seats(table) < 1:
        raise GameError(_("No free seat is left to hold."), code="no_free_seat")
    until = timezone.now() + timedelta(minutes=settings.TABLE_SEAT_HOLD_MINUTES)
    return SeatHold.objects.create(table=table, user=friend, held_by=host, until=until)


@transaction.atomic
def release_hold(host: User, table_id: int, friend_id: int) -> None:
    table = lock_table(table_id)
    _ensure_host(table, host)
    SeatHold.objects.filter(table=table, user_id=friend_id).delete()


@transaction.atomic
def remove_player(host: User, table_id: int, user_id: int) -> None:
    """The host stands a player up between rounds; at a private table they stay out."""
    table = lock_table(table_id)
    _ensure_host(table, host)
    if user_id == host.pk:
        raise GameError(
            _("You cannot remove yourself; leave the table instead."), code="bad_remove"
        )
    # Never during a round: their stake is in play and the round must end as dealt.
    if active_round(table) is not None:
        raise GameError(
            _("A round is being played: you can remove a player only between rounds."),
            code="round_in_progress",
        )
    seat = Seat.objects.filter(table=table, user_id=user_id).first()
    if seat is None:
        raise GameError(_("This player is not seated at your table."), code="not_seated")
    remove_seat(table, seat, reason="removed")
    SeatHold.objects.filter(table=table, user_id=user_id).delete()
    if table.is_private:
        TableGuest.objects.update_or_create(
            table=table, user_id=user_id, defaults={"removed_at": timezone.now()}
        )
    schedule_auto_start(table)


def ensure_may_enter(table: Table, user: User) -> None:
    if not may_enter(table, user):
        raise GameError(
            _("This table is private: you need an invitation from its host."),
            code="private_table",
        )
