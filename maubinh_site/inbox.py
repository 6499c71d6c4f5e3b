"""One inbox for a player: moderation's notices (case outcomes, compensation, suspension)
and social ones (friend requests, table invitations) in one list, newest first, with one
unread count that the header keeps live (``unread``, polled by static/js/site.js).

The two apps keep their own ``Notification`` models for now (issue 26 merges them): this
module is the only reader of both, so the swap changes this file and nothing that uses it.
It lives in the project package because moderation and social may not import each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from accounts.models import User
from moderation import selectors as moderation_selectors
from moderation import services as moderation_services
from social import selectors as social_selectors
from social import services as social_services
from social.models import FriendRequest, NotificationKind

LIMIT = 100


@dataclass(frozen=True)
class Item:
    """One line of the inbox, whichever app wrote it."""

    key: str  # "moderation:12", "social:7": unique across both
    source: str
    message: str
    created_at: datetime
    unread: bool
    link: str
    link_label: str


def items(user: User, limit: int = LIMIT) -> list[Item]:
    """The user's notices from both apps, newest first."""
    lines: list[Item] = []
    for n in moderation_selectors.notifications_of(user)[:limit]:
        link = reverse("moderation:case_detail", args=[n.dispute_id]) if n.dispute_id else ""
        lines.append(
            Item(f"moderation:{n.pk}", "moderation", n.message, n.created_at,
                 n.read_at is None, link, _("Open") if link else "")
        )  # fmt: skip
    social = list(social_selectors.notifications_of(user)[:limit])
    # A friend request is answered once: "Answer" only while it still waits.
    waiting = set(
        FriendRequest.objects.filter(
            to_user=user, from_user_id__in=[n.actor_id for n in social]
        ).values_list("from_user_id", flat=True)
    )
    for s in social:
        if s.url:
            link, label = s.url, _("Go to the table")
        elif s.kind == NotificationKind.FRIEND_REQUEST and s.actor_id in waiting:
            link, label = reverse("social:friends"), _("Answer")
        else:
            link, label = "", ""
        lines.append(
            Item(f"social:{s.pk}", "social", s.message, s.created_at, s.read_at is None,
                 link, label)
        )  # fmt: skip
    lines.sort(key=lambda item: item.created_at, reverse=True)
    return lines[:limit]


def unread_count(user: User) -> int:
    return moderation_selectors.unread_count(user) + social_selectors.unread_count(user)


@login_required
@require_http_methods(["GET", "POST"])
def inbox(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    if request.method == "POST":
        with transaction.atomic():  # both read, or neither
            moderation_services.mark_notifications_read(user)
            social_services.mark_notifications_read(user)
        return redirect("inbox")
    return render(request, "inbox.html", {"items": items(user)})


@login_required
@require_GET
@never_cache
def unread(request: HttpRequest) -> JsonResponse:
    """The header's live count and the newest unread notice (for a browser notification)."""
    user: User = request.user  # type: ignore[assignment]
    latest: dict[str, Any] | None = None
    newest = next((item for item in items(user, limit=20) if item.unread), None)
    if newest is not None:
        latest = {
            "key": newest.key,
            "message": newest.message,
            "url": newest.link or reverse("inbox"),
            "at": newest.created_at.isoformat(),
        }
    now = timezone.now().isoformat()
    return JsonResponse({"unread": unread_count(user), "latest": latest, "now": now})
