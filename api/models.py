"""Personal access tokens and the open streams' leases.

A token is shown once, when it is created; only its SHA-256 is kept (a token is 32 random
bytes, so a fast hash is as safe as a slow one and costs nothing per request). OAuth 2
access tokens are django-oauth-toolkit's own rows; both carry the same scopes.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Scope(models.TextChoices):
    READ = "read", _("read: your profile, balance, statement and history")
    PLAY = "play", _("play: tables and rounds as yourself")
    BOT_PLAY = "bot:play", _("bot:play: play as a bot account")
    TOURNAMENT = "tournament", _("tournament: register and withdraw")
    EXPORT = "export", _("export: your rounds as NDJSON")


class PersonalToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    # The first characters of the token, shown in the list so its owner can tell them apart.
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("personal access token")
        verbose_name_plural = _("personal access tokens")
        indexes = [models.Index(fields=["user", "revoked_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    def usable(self, now: datetime | None = None) -> bool:
        now = now or timezone.now()
        if self.revoked_at is not None:
            return False
        return self.expires_at is None or self.expires_at > now


class StreamLease(models.Model):
    """One open stream (api.limits): counted per token and per account while unexpired.

    A stream renews its lease while it is open and deletes it when it ends; a lease its
    server process never renewed (killed, crashed) stops counting when it expires.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    token_key = models.CharField(max_length=40, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    opened_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.token_key} until {self.expires_at:%H:%M:%S}"
