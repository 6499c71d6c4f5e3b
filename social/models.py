"""Blocks, friends and their requests, and the sends counted against the hourly limits.

A friend request or an invitation reaches its receiver as a ``notices.Notification``.

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
