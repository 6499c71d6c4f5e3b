from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.text import name_key


class Language(models.TextChoices):
    VIETNAMESE = "vi", "Tiếng Việt"
    ENGLISH = "en", "English"


class User(AbstractUser):
    """A person (or a bot) with a wallet; `username` logs in, `display_name` is shown."""

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    preferred_language = models.CharField(
        _("language"), max_length=5, choices=Language.choices, default=Language.VIETNAMESE
    )
    # The table's sounds (games/static/games/table/feel.js): kept on the account so every
    # device the player uses starts as they left the mute switch; the page keeps a local copy.
    sound_on = models.BooleanField(_("sound at the table"), default=True)
    suspended_until = models.DateTimeField(_("suspended until"), null=True, blank=True)
    suspension_reason = models.TextField(_("suspension reason"), blank=True)
    # A server-side player (the bots app): never logs in (see accounts.backends).
    is_bot = models.BooleanField(_("bot"), default=False, editable=False)
    # A third-party bot (docs/api.md#bot-accounts): an account its owner upgraded, for good,
    # to play through the API. Labelled a bot everywhere, never rated, seated only where
    # the host lets bots in; unlike ``is_bot`` it is driven from outside and still logs in.
    is_api_bot = models.BooleanField(_("bot account"), default=False, editable=False)
    # What each name looks like (accounts.text.name_key: the TR39 skeleton, casefolded), so
    # no name can be taken that looks like another person's (accounts.services). Kept by
    # save() from whatever path writes the name; not unique in the database: names taken
    # before the keys existed may share one.
    display_key = models.TextField(blank=True, db_index=True, editable=False)
    username_key = models.TextField(blank=True, db_index=True, editable=False)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("user")
        permissions = [("suspend_user", "Can suspend and reinstate users")]

    def __str__(self) -> str:
        return self.shown_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.display_key = name_key(self.display_name) if self.display_name else ""
        self.username_key = name_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            fields = set(update_fields)
            if "display_name" in fields:
                fields.add("display_key")
            if "username" in fields:
                fields.add("username_key")
            kwargs["update_fields"] = fields
        super().save(*args, **kwargs)

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username

    @property
    def plays_as_bot(self) -> bool:
        """The site's own bot or a third-party bot account: shown and rated as a bot."""
        return self.is_bot or self.is_api_bot

    def is_suspended(self, now: datetime | None = None) -> bool:
        now = now or timezone.now()
        return self.suspended_until is not None and self.suspended_until > now


class SignUp(models.Model):
    """Where an account was signed up from (the sign-up page's client address; an IPv6 /64
    network counts as one address), on which Vietnamese calendar day, and whether it
    received the sign-up grant: at most SIGNUP_GRANTS_PER_ADDRESS_PER_DAY accounts of one
    address and day do (docs/ledger.md)."""

    user = models.OneToOneField(
        User, on_delete=models.CASCADE, primary_key=True, related_name="signup"
    )
    address = models.CharField(_("address"), max_length=64)
    day = models.DateField(_("day (Vietnam time)"))
    granted = models.BooleanField(_("received the sign-up grant"))

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        indexes = [models.Index(fields=["address", "day"], name="signup_address_day_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} from {self.address} on {self.day}"
