"""Who a bearer token speaks for: a personal access token or an OAuth 2 access token.

``authenticate_bearer`` is sync (it reads the database); the async streams call it through
``database_sync_to_async``. ``grant_still_valid`` answers, for a stream already open,
whether its token still works (revoked, expired, its account deactivated: no).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone
from oauth2_provider.models import get_access_token_model

from accounts.models import User
from api.models import PersonalToken, Scope
from games import events

# A personal token starts with this, so it is told apart from an OAuth token without a
# lookup (and found by secret scanners).
PERSONAL_PREFIX = "mbp_"
# last_used_at is written at most this often per token: not one write per request.
LAST_USED_RESOLUTION = timedelta(minutes=1)

ALL_SCOPES = frozenset(Scope.values)


@dataclass(frozen=True)
class Grant:
    """What a request may do: its user, its scopes, and which token it came with."""

    user: User
    scopes: frozenset[str]
    # "pat:<id>" or "oauth:<id>": the key of the limits and of grant_still_valid.
    token_id: str

    def has(self, scope: str) -> bool:
        return scope in self.scopes

    @property
    def may_play(self) -> bool:
        """Tables and rounds as yourself: ``play``, or ``bot:play`` on a bot account."""
        if self.user.is_api_bot:
            return self.has(Scope.BOT_PLAY) or self.has(Scope.PLAY)
        return self.has(Scope.PLAY)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def authenticate_bearer(authorization_header: str) -> Grant | None:
    """The grant of an ``Authorization: Bearer <token>`` header, or None (no header, not a
    bearer token, unknown, revoked or expired token, inactive account)."""
    scheme, _, token = (authorization_header or "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 512:
        return None
    if token.startswith(PERSONAL_PREFIX):
        return _personal(token)
    return _oauth(token)


def _personal(token: str) -> Grant | None:
    now = timezone.now()
    row = PersonalToken.objects.select_related("user").filter(digest=digest(token)).first()
    if row is None or not row.usable(now) or not row.user.is_active:
        return None
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_RESOLUTION:
        PersonalToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return Grant(row.user, frozenset(row.scopes) & ALL_SCOPES, f"pat:{row.pk}")


def _oauth(token: str) -> Grant | None:
    access = (
        get_access_token_model()
        .objects.select_related("user")
        .filter(token_checksum=digest(token))
        .first()
    )
    if access is None or access.user is None or access.is_expired():
        return None
    if not access.user.is_active:
        return None
    return Grant(access.user, frozenset(access.scope.split()) & ALL_SCOPES, f"oauth:{access.pk}")


def grant_still_valid(token_id: str) -> bool:
    """Whether the token behind an open stream still works (revoked: no, at once)."""
    kind, _, pk = token_id.partition(":")
    if not pk.isdigit():
        return False
    now = timezone.now()
    if kind == "pat":
        unexpired = Q(expires_at__isnull=True) | Q(expires_at__gt=now)
        return PersonalToken.objects.filter(
            unexpired, pk=int(pk), revoked_at__isnull=True, user__is_active=True
        ).exists()
    if kind == "oauth":
        access = get_access_token_model().objects.filter(
            pk=int(pk), expires__gt=now, user__is_active=True
        )
        return bool(access.exists())
    return False


def token_group(token_id: str) -> str:
    """Every open stream of one token (a group name allows no colon)."""
    return "api-token-" + token_id.replace(":", "-")


def end_token_streams(token_id: str) -> None:
    """End every open stream of this token, once the transaction commits (a revocation).
    The streams also check their token every ``CHECK_SECONDS``: this makes it at once."""
    events.publish(token_group(token_id), {"type": "token_revoked"}, private=True)
