"""Every write to an account goes through here."""

from __future__ import annotations

import hashlib
import unicodedata
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.addresses import address_group
from accounts.errors import AccountError, SeatRefused
from accounts.models import Language, SignUp, User

DISPLAY_NAME_MAX = 40

# The day of the sign-up grant's limit per address: Vietnam's, like the daily bonus.
GRANT_DAY_TIMEZONE = ZoneInfo("Asia/Ho_Chi_Minh")

# Sent inside the sign-up transaction, so what listens (the ledger's sign-up grant)
# commits or rolls back with the new account. Arguments: user, grant (False when the
# account's address has had its sign-up grants for the day: no grant for this one).
user_signed_up = Signal()


@transaction.atomic
def sign_up(
    *,
    username: str,
    password: str,
    display_name: str = "",
    email: str = "",
    language: str = Language.VIETNAMESE,
    address: str | None = None,
) -> User:
    """Create a player account; listeners of `user_signed_up` run in the same transaction.

    ``address``: the client's (the sign-up page passes it). The first
    SIGNUP_GRANTS_PER_ADDRESS_PER_DAY accounts of an address each Vietnamese day get the
    sign-up grant; later ones are created without it. None (accounts made by the site
    itself: demo data, tests) records nothing and grants."""
    user = User.objects.create_user(
        username=username,
        password=password,
        email=email,
        display_name=display_name.strip(),
        preferred_language=language,
    )
    grant = True if address is None else _record_sign_up(user, address)
    user_signed_up.send(sender=User, user=user, grant=grant)
    return user


def grant_day(now: datetime | None = None) -> date:
    return timezone.localtime(now or timezone.now(), GRANT_DAY_TIMEZONE).date()


def _record_sign_up(user: User, address: str) -> bool:
    """Record where the account came from; whether it may have the sign-up grant."""
    group, day = address_group(address), grant_day()
    _hold_address(group, day)
    granted = (
        SignUp.objects.filter(address=group, day=day, granted=True).count()
        < settings.SIGNUP_GRANTS_PER_ADDRESS_PER_DAY
    )
    SignUp.objects.create(user=user, address=group, day=day, granted=granted)
    return granted


def _hold_address(group: str, day: date) -> None:
    """Serialize the sign-ups of one address and day until the transaction ends: two at
    once would both count the same grants and both pass the limit. A PostgreSQL advisory
    lock on the pair (a collision only serializes more); SQLite serializes every writer,
    and the sign-up has written its user already."""
    if connection.vendor != "postgresql":
        return
    digest = hashlib.sha256(f"signup:{group}:{day.isoformat()}".encode()).digest()
    key = int.from_bytes(digest[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def grants_left(address: str | None, now: datetime | None = None) -> int:
    """How many more accounts of this address get the sign-up grant today (the page says)."""
    counted = SignUp.objects.filter(
        address=address_group(address), day=grant_day(now), granted=True
    ).count()
    return max(settings.SIGNUP_GRANTS_PER_ADDRESS_PER_DAY - counted, 0)


def clean_display_name(name: str, *, user: User | None = None) -> str:
    """The name as it will be shown; raises AccountError if it cannot be used.

    Names are unique among people ignoring case (and a name cannot be another person's
    username), so nobody can pass for someone else on a table or a leaderboard. The check is not a
    database constraint (existing names may repeat); two players taking one name in the
    same instant is harmless: profiles are found by id, not by name.
    """
    name = " ".join(name.split())  # no leading, trailing or repeated spaces
    if not name:
        return ""
    if len(name) < 2:
        raise AccountError(_("A display name has at least 2 characters."), code="name_short")
    if len(name) > DISPLAY_NAME_MAX:
        raise AccountError(
            _("A display name has at most %(n)s characters.") % {"n": DISPLAY_NAME_MAX},
            code="name_long",
        )
    # Control, format (bidi overrides, zero-width) and unassigned characters can disguise
    # a name or break the page's layout.
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise AccountError(
            _("A display name cannot contain invisible characters."), code="name_invisible"
        )
    # Bots are left out: they wear a bot badge on every seat and list, and their common
    # first names (Lan, Minh...) would otherwise take the names people most want.
    people = User.objects.filter(is_bot=False)
    others = people.exclude(pk=user.pk) if user is not None else people
    if others.filter(Q(display_name__iexact=name) | Q(username__iexact=name)).exists():
        raise AccountError(_("Another player already uses this name."), code="name_taken")
    return name


def update_profile(user: User, *, display_name: str, language: str) -> User:
    if language not in Language.values:
        raise AccountError(_("This language is not supported."), code="bad_language")
    user.display_name = clean_display_name(display_name, user=user)
    user.preferred_language = language
    user.save(update_fields=["display_name", "preferred_language"])
    return user


def set_preferred_language(user: User, language: str) -> None:
    if language not in Language.values:
        raise AccountError(_("This language is not supported."), code="bad_language")
    if user.preferred_language != language:
        user.preferred_language = language
        user.save(update_fields=["preferred_language"])


def set_sound(user: User, *, on: bool) -> None:
    """The table's mute switch, remembered on the account (every device starts with it)."""
    # One column, written whole: two devices switching at once leave the later choice.
    User.objects.filter(pk=user.pk).update(sound_on=on)
    user.sound_on = on


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
