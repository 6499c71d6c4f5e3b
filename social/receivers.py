"""The social app answers the tables' questions (games.signals): a block keeps two apart.

The rule is ``social.selectors.block_between`` / ``kept_apart``; these receivers only phrase
the refusal. The blocked player is never told they are blocked: their refusal is neutral.
The one who blocked is told why, naming whom they blocked (docs/social.md).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Table
from games.selectors import acting_host_id
from social.errors import SocialError
from social.models import Block
from social.selectors import block_between, block_with_seated

NEUTRAL = _("You cannot join this table.")


def on_sit_requested(sender: Any, user: User, table: Table, **kwargs: Any) -> SocialError | None:
    """``games.signals.sit_requested``: nobody sits where someone kept apart from them is
    seated (public tables too), nor at a private table whose creator they are kept apart
    from (its acting host is seated)."""
    if user.is_bot:
        return None
    block = block_with_seated(user.pk, table)  # one query, the seats read inside it
    if block is None:
        return None
    if block.blocker_id != user.pk:
        return SocialError(NEUTRAL, code="join_refused")
    if table.seat_set.filter(user_id=block.blocked_id).exists():
        return SocialError(
            _("You blocked %(name)s, who is seated at this table."),
            code="you_blocked",
            name=block.blocked.shown_name,
        )
    return SocialError(
        _("You blocked %(name)s, whose table this is."),
        code="you_blocked",
        name=block.blocked.shown_name,
    )


def on_watch_requested(sender: Any, table: Table, user: User, **kwargs: Any) -> str | bool | None:
    """``games.signals.watch_requested``: a private table keeps out whoever is kept apart
    from its creator or its acting host (no watch, no link, no held seat lets them in)."""
    if not table.is_private or not user.is_authenticated or user.is_bot:
        return None
    hosts = {table.host_id, acting_host_id(table)}  # a managed table has no acting host
    block = block_between(user.pk, {h for h in hosts if h is not None})
    if block is None:
        return None
    if block.blocker_id != user.pk:
        return False  # games says "You cannot join this table."
    return str(
        _("You blocked %(name)s, the host of this table.") % {"name": block.blocked.shown_name}
    )


def on_invite_requested(
    sender: Any, host: User, user: User, table: Table, **kwargs: Any
) -> str | None:
    """``games.signals.invite_requested``: a host keeps no seat for someone kept apart from
    them."""
    block = block_between(host.pk, [user.pk])
    if block is None:
        return None
    return refusal_to_invite(host, block)


def refusal_to_invite(inviter: User, block: Block) -> str:
    """What the inviter is told when a block stands between them and whom they invite."""
    if block.blocker_id == inviter.pk:
        return str(
            _("You blocked %(name)s: unblock them first.") % {"name": block.blocked.shown_name}
        )
    return str(_("You cannot invite %(name)s.") % {"name": block.blocker.shown_name})


def connect() -> None:
    from games.signals import invite_requested, sit_requested, watch_requested

    sit_requested.connect(on_sit_requested, dispatch_uid="social.sit")
    watch_requested.connect(on_watch_requested, dispatch_uid="social.watch")
    invite_requested.connect(on_invite_requested, dispatch_uid="social.invite")
