"""Every write to an account goes through here."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.dispatch import Signal
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.errors import AccountError, SeatRefused
from accounts.models import Language, User

# Sent inside the sign-up transaction, so what listens (the ledger's sign-up grant)
# commits or rolls back with the new account. Arguments: user.
user_signed_up = Signal()


@transaction.atomic
def sign_up(
    *,
    username: str,
    password: str,
    display_name: str = "",
    email: str = "",
    language: str = Language.VIETNAMESE,
) -> User:
    """Create a player account; listeners of `user_signed_up` run in the same transaction."""
    user = User.objects.create_user(
        username=username,
        password=password,
        email=email,
        display_name=display_name.strip(),
        preferred_language=language,
    )
    user_signed_up.send(sender=User, user=user)
    return user


def update_profile(user: User, *, display_name: str, language: str) -> User:
    if language not in Language.values:
        raise AccountError(_("This language is not supported."), code="bad_language")
    user.display_name = display_name.strip()
    user.preferred_language = language
    user.save(update_fields=["display_name", "preferred_language"])
    return user


def set_preferred_language(user: User, language: str) -> None:
    if language not in Language.values:
        raise AccountError(_("This language is not supported."), code="bad_language")
    if user.preferred_language != language:
        user.preferred_language = language
        user.save(update_fields=["preferred_language"])


@transaction.atomic
def suspend_user(user: User, *, until: datetime, reason: str) -> User:
    """Suspend until a time; the user can still log in and read their history."""
    if not reason.strip():
        raise AccountError(_("A suspension needs a reason."), code="reason_required")
    if until <= timezone.now():
        raise AccountError(_("The end of a suspension must be in the future."), code="bad_until")
    # Lock the row: two moderators acting at once must not interleave their writes.
    locked = User.objects.select_for_update().get(pk=user.pk)
    locked.suspended_until = until
    locked.suspension_reason = reason.strip()
    locked.save(update_fields=["suspended_until", "suspension_reason"])
    return locked


@transaction.atomic
def lift_suspension(user: User) -> User:
    locked = User.objects.select_for_update().get(pk=user.pk)
    locked.suspended_until = None
    locked.suspension_reason = ""
    locked.save(update_fields=["suspended_until", "suspension_reason"])
    return locked


def ensure_can_sit(user: User) -> None:
    """Raise SeatRefused if this user may not sit down at a table now (games calls this)."""
    if not user.is_active:
        raise SeatRefused(_("This account has been deactivated."), code="inactive")
    if user.is_suspended():
        until = formats.date_format(timezone.localtime(user.suspended_until), "DATETIME_FORMAT")
        raise SeatRefused(
            _("Your account is suspended until %(until)s: %(reason)s")
            % {"until": until, "reason": user.suspension_reason},
            code="suspended",
        )
