"""Blocks, friends and their requests, challenges, and the sends counted against the hourly
limits.

A friend request, an invitation or a challenge reaches its receiver as a ``notices.Notification``.

Rows are written only by `social.services`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Block(models.Model):
    """`blocker` no longer sees `blocked`'s chat messages, invitations or friend requests."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("blocker"),
        on_delete=models.CASCADE,
        related_name="blocks_made",
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("blocked user"),
        on_delete=models.CASCADE,
        related_name="blocks_received",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class FriendRequest(models.Model):
    """``from_user`` asks ``to_user`` to be friends; gone once accepted or refused."""

    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("from"),
        on_delete=models.CASCADE,
        related_name="friend_requests_sent",
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("to"),
        on_delete=models.CASCADE,
        related_name="friend_requests_received",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")
        constraints = [
            models.UniqueConstraint(fields=["from_user", "to_user"], name="friend_request_unique"),
            models.CheckConstraint(
                condition=~Q(from_user=F("to_user")), name="friend_request_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} asks {self.to_user_id}"


class Friendship(models.Model):
    """Two friends, stored once with the smaller id first."""

    user_low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    user_high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["user_low", "user_high"], name="friendship_unique"),
            models.CheckConstraint(
                condition=Q(user_low__lt=F("user_high")), name="friendship_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_low_id} and {self.user_high_id}"


class SentKind(models.TextChoices):
    FRIEND_REQUEST = "friend_request", _("Friend request")
    TABLE_INVITE = "table_invite", _("Invitation to a table")
    CHALLENGE = "challenge", _("Challenge")


class Sent(models.Model):
    """A friend request or a table invitation someone sent, counted against their limit per
    rolling hour (SOCIAL_REQUESTS_PER_HOUR, SOCIAL_INVITES_PER_HOUR); rows older than the
    hour are deleted at the sender's next send."""

    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=SentKind.choices)
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = _("request or invitation sent")
        verbose_name_plural = _("requests and invitations sent")
        indexes = [models.Index(fields=["sender", "kind", "created_at"], name="social_sent_idx")]

    def __str__(self) -> str:
        return f"{self.sender_id} {self.kind} {self.created_at:%Y-%m-%d %H:%M}"


class ChallengeState(models.TextChoices):
    OPEN = "open", _("Waiting for an answer")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    CANCELLED = "cancelled", _("Cancelled")
    EXPIRED = "expired", _("Expired")


class Challenge(models.Model):
    """``challenger`` asks ``challenged`` to a heads-up table at this stake and these rules
    (checked by the create-table form: ``social.forms.ChallengeForm``). Open until it is
    answered, cancelled or ``expires_at``; accepted, it names the private table both sit at.
    ``version`` grows by one with each change, and every event about it carries it."""

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("challenger"),
        on_delete=models.CASCADE,
        related_name="challenges_sent",
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("challenged player"),
        on_delete=models.CASCADE,
        related_name="challenges_received",
    )
    preset = models.CharField(_("rules"), max_length=20)
    stake = models.PositiveIntegerField(_("stake per chi"))
    rules_overrides = models.JSONField(_("house rules"), default=dict, blank=True)
    state = models.CharField(
        _("state"), max_length=10, choices=ChallengeState.choices, default=ChallengeState.OPEN
    )
    version = models.PositiveIntegerField(default=1)
    table = models.ForeignKey(
        "games.Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"))
    expires_at = models.DateTimeField(_("expires at"))
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        indexes = [models.Index(fields=["state", "expires_at"], name="social_challenge_due_idx")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(challenger=F("challenged")), name="challenge_not_self"
            ),
            # One open challenge between the same two, in the same direction: a second
            # click while it waits meets it (social.services.challenge).
            models.UniqueConstraint(
                fields=["challenger", "challenged"],
                condition=Q(state="open"),
                name="challenge_one_open_per_pair",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenger_id} challenges {self.challenged_id} ({self.state})"
