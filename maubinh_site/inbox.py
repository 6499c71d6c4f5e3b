"""One inbox for a player: every notice (``notices.Notification``: case outcomes,
compensation, suspension, friend requests, table invitations, challenges) in one list, newest first,
with one unread count that the header shows (``header_count``) and keeps live (``unread``,
polled by static/js/site.js). The old pages of moderation's and social's notices redirect
here.

It lives in the project package because it joins what two sibling apps know: social hides
the notices of players one blocked, answers a friend request ("Answer" while it waits) and
a challenge ("Accept", "Decline" while it is open).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from accounts.models import User
from notices import services as notices
from notices.models import Notification, NotificationKind
from social import selectors as social_selectors
from social.models import FriendRequest

LIMIT = 100


@dataclass(frozen=True)
class Item:
    """One line of the inbox."""

    key: str  # "social:7", "moderation:12": who speaks, and the notice's id
    source: str
    message: str
    created_at: datetime
    unread: bool
    link: str
    link_label: str
    challenge: int | None = None
    """A challenge still waiting for this player's answer: accept or decline it here."""


def items(user: User, limit: int = LIMIT) -> list[Item]:
    """The user's notices, newest first (none from a player they blocked)."""
    shown = list(social_selectors.notifications_of(user)[:limit])
    # A friend request is answered once: "Answer" only while it still waits.
    waiting = set(
        FriendRequest.objects.filter(
            to_user=user, from_user_id__in=[n.actor_id for n in shown if n.actor_id]
        ).values_list("from_user_id", flat=True)
    )
    # A challenge is answered once, too: "Accept" and "Decline" only while it is open.
    open_challenges = set(
        social_selectors.open_challenges(user).filter(challenged=user).values_list("pk", flat=True)
    )
    return [_item(n, waiting, open_challenges) for n in shown]


def _item(n: Notification, waiting: set[int], open_challenges: set[int]) -> Item:
    challenge = n.params.get("challenge") if n.kind == NotificationKind.CHALLENGE else None
    if n.source == "moderation":
        link, label = n.link, _("Open") if n.link else ""  # the case, the tournament
    elif n.url:
        link, label = n.url, _("Go to the table")
    elif n.kind == NotificationKind.FRIEND_REQUEST and n.actor_id in waiting:
        link, label = reverse("social:friends"), _("Answer")
    else:
        link, label = "", ""
    return Item(
        f"{n.source}:{n.pk}",
        n.source,
        n.message,
        n.created_at,
        n.read_at is None,
        link,
        label,
        challenge if challenge in open_challenges else None,
    )


def unread_count(user: User) -> int:
    return social_selectors.unread_count(user)


def header_count(request: HttpRequest) -> dict[str, Any]:
    """The header's unread count (a context processor), on every page of a signed-in user."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"inbox_unread": unread_count(user)}


@login_required
@require_http_methods(["GET", "POST"])
def inbox(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    if request.method == "POST":
        notices.mark_notifications_read(user)
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
