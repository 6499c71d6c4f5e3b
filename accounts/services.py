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
from accounts.errors import AccountError, SeatRefused, TextRefused
from accounts.models import Language, SignUp, User
from accounts.text import clean_text, hides_characters, name_key

DISPLAY_NAME_MAX = 40
REASON_MAX = 2000

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
    _hold_names(name_key(username), name_key(display_name) if display_name else "")
    username = clean_username(username)
    display_name = clean_display_name(display_name)
    user = User.objects.create_user(
        username=username,
        password=password,
        email=email,
        display_name=display_name,
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


# The advisory lock's first key: which kind of lock (the second is the name's key).
NAMES_LOCK = 0x6E616D65  # "name"


def _hold_names(*keys: str) -> None:
    """Until the transaction ends, be the only one taking a name with one of these keys.

    A name is free when no other person's name has its key (``_taken``); two people taking
    look-alike names in the same instant would both see it free and both keep it. This
    PostgreSQL advisory lock on the key makes them take it one after the other, and the
    second is refused. (There is no unique constraint: names taken before the keys existed
    may share one.) SQLite serializes every writer anyway. Keys are locked in one order, so
    two sign-ups locking a username and a display name never wait on each other.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for key in sorted({k for k in keys if k}):
            digest = int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big", signed=True)
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [NAMES_LOCK, digest])


def _taken(key: str, user: User | None) -> bool:
    """Another person's display name or username looks like a name with this key.

    Bots are left out: they wear a bot badge on every seat and list, and their common
    first names (Lan, Minh...) would otherwise take the names people most want."""
    people = User.objects.filter(is_bot=False)
    others = people.exclude(pk=user.pk) if user is not None else people
    return others.filter(Q(display_key=key) | Q(username_key=key)).exists()


def _policy(text: str, *, max_length: int | None = None) -> str:
    """The text policy (accounts.text) on a name; its refusal as an AccountError."""
    try:
        return clean_text(text, max_length=max_length)
    except TextRefused as exc:
        raise AccountError(exc.message, code=exc.code) from exc


USERNAME_MAX = 150


def clean_username(username: str, *, user: User | None = None) -> str:
    """A new username as it will be kept; raises AccountError if it cannot be used.

    A username is shown where its owner has no display name, so it is held to the same
    rules as one: nothing invisible in it, and not like another person's name.
    """
    # People log in by typing it: a username the policy would change (beyond the NFKC that
    # Django applies to every username) is refused rather than kept other than typed.
    invisible = AccountError(
        _("A username cannot contain spaces or invisible characters."), code="username_invisible"
    )
    if hides_characters(username):
        raise invisible
    kept = _policy(username, max_length=USERNAME_MAX)
    if not kept:
        raise AccountError(_("Choose a username."), code="username_required")
    if kept != unicodedata.normalize("NFKC", username):
        raise invisible
    if _taken(name_key(kept), user):
        raise AccountError(_("Another player already uses this name."), code="name_taken")
    return kept


def clean_display_name(name: str, *, user: User | None = None) -> str:
    """The name as it will be shown; raises AccountError if it cannot be used.

    The text policy cleans it (accounts.text: NFKC, spaces collapsed, a bounded number of
    accents; a name with an invisible or blank-looking character is refused, not cleaned),
    and it cannot look like another person's display name or username: their
    TR39 skeletons, casefolded, differ (``Bình`` typed decomposed is ``Bình``, ``Аn`` with
    a Cyrillic А is ``An``), so nobody can pass for someone else on a table or a
    leaderboard. ``_hold_names`` keeps two people from taking one at the same instant.
    """
    if hides_characters(name):  # in a name, a hidden character is a disguise: refused
        raise AccountError(
            _("A display name cannot contain invisible characters."), code="name_invisible"
        )
    name = _policy(name)
    if not name:
        return ""
    if len(name) < 2:
        raise AccountError(_("A display name has at least 2 characters."), code="name_short")
    if len(name) > DISPLAY_NAME_MAX:
        raise AccountError(
            _("A display name has at most %(n)s characters.") % {"n": DISPLAY_NAME_MAX},
            code="name_long",
        )
    if _taken(name_key(name), user):
        raise AccountError(_("Another player already uses this name."), code="name_taken")
    return name


@transaction.atomic
def update_profile(user: User, *, display_name: str, language: str) -> User:
    if language not in Language.values:
        raise AccountError(_("This language is not supported."), code="bad_language")
    _hold_names(name_key(display_name) if display_name else "")
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
    reason = _multiline(reason)
    if not reason:
        raise AccountError(_("A suspension needs a reason."), code="reason_required")
    if until <= timezone.now():
        raise AccountError(_("The end of a suspension must be in the future."), code="bad_until")
    # Lock the row: two moderators acting at once must not interleave their writes.
    locked = User.objects.select_for_update().get(pk=user.pk)
    locked.suspended_until = until
    locked.suspension_reason = reason
    locked.save(update_fields=["suspended_until", "suspension_reason"])
    return locked


@transaction.atomic
def lift_suspension(user: User) -> User:
    locked = User.objects.select_for_update().get(pk=user.pk)
    locked.suspended_until = None
    locked.suspension_reason = ""
    locked.save(update_fields=["suspended_until", "suspension_reason"])
    return locked


def _multiline(text: str) -> str:
    try:
        return clean_text(text, multiline=True, max_length=REASON_MAX)
    except TextRefused as exc:
        raise AccountError(exc.message, code=exc.code) from exc


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
