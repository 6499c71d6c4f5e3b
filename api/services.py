"""Every write of the api app: personal tokens (create, revoke) and the bot upgrade."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from oauth2_provider.models import get_access_token_model

from accounts.models import User
from api.auth import ALL_SCOPES, PERSONAL_PREFIX, digest, end_token_streams
from api.errors import ApiError
from api.models import PersonalToken
from games.models import RoundPlayer, Seat
from practice.models import DailyAttempt
from tournaments.models import Entry

MAX_TOKENS_PER_USER = 50


@dataclass(frozen=True)
class NewToken:
    row: PersonalToken
    secret: str  # shown once: only its digest is kept


def create_token(
    user: User, *, name: str, scopes: Iterable[str], expires_at: datetime | None = None
) -> NewToken:
    """A new personal access token; its secret is in the answer and nowhere else."""
    wanted = sorted(set(scopes))
    unknown = [s for s in wanted if s not in ALL_SCOPES]
    if unknown or not wanted:
        raise ApiError(
            400, "malformed", _("Unknown or missing scopes: %(s)s.") % {"s": ", ".join(unknown)}
        )
    if expires_at is not None and expires_at <= timezone.now():
        raise ApiError(400, "malformed", _("The expiry must be in the future."))
    with transaction.atomic():
        # Counting and creating under the user's row lock: two requests at once cannot
        # both pass the cap.
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
        if (
            PersonalToken.objects.filter(user=user, revoked_at__isnull=True).count()
            >= MAX_TOKENS_PER_USER
        ):
            raise ApiError(
                409,
                "too_many_tokens",
                _("You have %(n)d tokens: revoke one first.") % {"n": MAX_TOKENS_PER_USER},
            )
        secret = PERSONAL_PREFIX + secrets.token_urlsafe(32)
        row = PersonalToken.objects.create(
            user=user,
            name=(name or "").strip()[:60] or _("token"),
            prefix=secret[: len(PERSONAL_PREFIX) + 6],
            digest=digest(secret),
            scopes=wanted,
            expires_at=expires_at,
        )
    return NewToken(row, secret)


def revoke_token(user: User, token_id: int) -> PersonalToken:
    """Revoke one of the user's tokens: it stops working at once (open streams check it
    again, api.auth.grant_still_valid)."""
    with transaction.atomic():
        row = PersonalToken.objects.select_for_update().filter(pk=token_id, user=user).first()
        if row is None:
            raise ApiError(404, "not_found", _("No such token."))
        if row.revoked_at is None:
            row.revoked_at = timezone.now()
            row.save(update_fields=["revoked_at"])
            end_token_streams(f"pat:{row.pk}")  # its open streams end at once, after commit
    return row


def revoke_oauth_token(user: User, token_id: int) -> None:
    """Revoke an OAuth 2 access token granted to an app (with its refresh token)."""
    access = get_access_token_model().objects.filter(pk=token_id, user=user).first()
    if access is None:
        raise ApiError(404, "not_found", _("No such token."))
    with transaction.atomic():
        access.revoke()
        end_token_streams(f"oauth:{token_id}")  # its open streams end at once, after commit


@transaction.atomic
def upgrade_to_bot(user: User) -> User:
    """Make an account that never played a bot account, for good (docs/api.md#bot-accounts).

    Never played: no round dealt, no tournament entered, no daily hand, not seated. There is
    no way back: a bot account's results were never in the human pool, so none can join it.
    """
    # The user's row, locked: a round dealt (or a registration) meanwhile waits, and then
    # finds a bot; an upgrade meanwhile finds the round.
    locked = User.objects.select_for_update().get(pk=user.pk)
    if locked.is_api_bot:
        return locked  # already a bot account: upgrading again changes nothing
    if locked.is_bot:
        raise ApiError(409, "not_upgradable", _("The site's own bots are not upgraded."))
    if (
        RoundPlayer.objects.filter(user=locked).exists()
        or Entry.objects.filter(user=locked).exists()
        or DailyAttempt.objects.filter(user=locked).exists()
        or Seat.objects.filter(user=locked).exists()
    ):
        raise ApiError(
            409,
            "has_played",
            _("Only an account that has never played can become a bot account."),
        )
    User.objects.filter(pk=locked.pk).update(is_api_bot=True)
    locked.is_api_bot = True
    return locked
