"""Sanctions: a suspension (no play, no login) and a mute (no table talk), and lifting them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import services as account_services
from accounts.models import User
from moderation.errors import Forbidden, ModerationError, NotFound
from moderation.models import ActionKind, Mute
from moderation.roles import is_admin
from moderation.services.base import (
    as_id,
    audit,
    int_or_none,
    notify,
    refusals_recorded,
    require_moderator,
    require_reason,
)
from notices.models import NotificationKind


def _suspension(user: User) -> dict[str, Any]:
    until = user.suspended_until
    return {"until": until.isoformat() if until else None, "reason": user.suspension_reason}


def _hours(value: Any, refusal: Any) -> int:
    """A sanction's length from a form: 1 hour to 1 year."""
    hours = int_or_none(value)
    if hours is None or not 1 <= hours <= 24 * 365:
        raise ModerationError(refusal, code="bad_duration")
    return hours


def _target_user(moderator: User, user_id: Any) -> User:
    user = User.objects.filter(pk=as_id(user_id)).first()
    if user is None:
        raise NotFound()
    if user.pk == moderator.pk:
        raise Forbidden(_("You cannot sanction yourself."), code="self_sanction")
    if is_admin(user) and not is_admin(moderator):
        raise Forbidden(_("Only an admin can sanction an admin."), code="sanction_admin")
    return user


@refusals_recorded(ActionKind.SUSPEND, "accounts.user")
@transaction.atomic
def suspend(moderator: User, user_id: Any, *, hours: Any, reason: str) -> User:
    """Suspend for a number of hours; the reason is shown to the user."""
    require_moderator(moderator)
    reason = require_reason(reason)
    hours = _hours(hours, _("A suspension lasts 1 hour to 1 year."))
    user = _target_user(moderator, user_id)
    before = _suspension(user)
    user = account_services.suspend_user(
        user, until=timezone.now() + timedelta(hours=hours), reason=reason
    )
    audit(
        moderator, ActionKind.SUSPEND, user, reason=reason, before=before, after=_suspension(user)
    )
    until = timezone.localtime(user.suspended_until).strftime("%Y-%m-%d %H:%M")
    notify(user.pk, NotificationKind.SUSPENDED, until=until, reason=reason)
    return user


@refusals_recorded(ActionKind.LIFT_SUSPENSION, "accounts.user")
@transaction.atomic
def lift_suspension(moderator: User, user_id: Any, *, reason: str) -> User:
    require_moderator(moderator)
    reason = require_reason(reason)
    user = _target_user(moderator, user_id)
    before = _suspension(user)
    user = account_services.lift_suspension(user)
    audit(
        moderator,
        ActionKind.LIFT_SUSPENSION,
        user,
        reason=reason,
        before=before,
        after=_suspension(user),
    )
    notify(user.pk, NotificationKind.SUSPENSION_LIFTED)
    return user


def _mute_state(user: User) -> dict[str, Any]:
    mute = Mute.objects.filter(user=user).first()
    if mute is None or mute.until <= timezone.now():
        return {"until": None}
    return {"until": mute.until.isoformat(), "reason": mute.reason}


@refusals_recorded(ActionKind.MUTE, "accounts.user")
@transaction.atomic
def mute(moderator: User, user_id: Any, *, hours: Any, reason: str) -> Mute:
    """Silence a user's table talk for a number of hours; they still play."""
    require_moderator(moderator)
    reason = require_reason(reason)
    hours = _hours(hours, _("A mute lasts 1 hour to 1 year."))
    user = _target_user(moderator, user_id)
    before = _mute_state(user)
    muted, _created = Mute.objects.update_or_create(
        user=user,
        defaults={
            "until": timezone.now() + timedelta(hours=hours),
            "reason": reason,
            "by": moderator,
        },
    )
    audit(moderator, ActionKind.MUTE, user, reason=reason, before=before, after=_mute_state(user))
    return muted


@refusals_recorded(ActionKind.UNMUTE, "accounts.user")
@transaction.atomic
def unmute(moderator: User, user_id: Any, *, reason: str) -> User:
    require_moderator(moderator)
    reason = require_reason(reason)
    user = _target_user(moderator, user_id)
    before = _mute_state(user)
    Mute.objects.filter(user=user).update(until=timezone.now())
    audit(moderator, ActionKind.UNMUTE, user, reason=reason, before=before, after=_mute_state(user))
    return user
