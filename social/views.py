"""Friends, a player's card, social notifications. Each write is one service call; a
refusal comes back as a message in the user's language on the page it came from."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from games.models import Seat
from social import selectors, services
from social.errors import SocialError
from social.models import Friendship


def _user(request: HttpRequest) -> User:
    return request.user  # type: ignore[return-value]


def _back(request: HttpRequest, default: str = "social:friends") -> HttpResponse:
    """Back to the page the form was on (a safe path on this site), else ``default``."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(default)


def _person(user_id: int) -> User:
    return get_object_or_404(User, pk=user_id, is_bot=False, is_active=True)


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    if request.method == "POST":  # add a friend by username
        name = request.POST.get("username", "").strip()
        other = User.objects.filter(username__iexact=name, is_bot=False, is_active=True).first()
        if other is None:
            messages.error(request, _("No player has this name."))
        else:
            _run(request, services.send_friend_request, user, other)
        return redirect("social:friends")
    seat = Seat.objects.filter(user=user).select_related("table").first()
    context: dict[str, Any] = {
        "friends": selectors.friends_of(user),
        "incoming": selectors.incoming_requests(user),
        "outgoing": selectors.outgoing_requests(user),
        "seat": seat,
    }
    return render(request, "social/friends.html", context)


def _run(request: HttpRequest, action: Any, *args: Any, done: str = "") -> bool:
    try:
        result = action(*args)
    except SocialError as exc:
        messages.error(request, exc.message)
        return False
    if done:
        messages.success(request, done)
    elif action is services.send_friend_request:
        if isinstance(result, Friendship):
            messages.success(request, _("You are friends now."))
        else:
            messages.success(request, _("Friend request sent."))
    return True


@login_required
def player(request: HttpRequest, user_id: int) -> HttpResponse:
    """A player's card: become friends, block or unblock (profiles link here)."""
    other = _person(user_id)
    context = {"other": other, "relation": selectors.relation(_user(request), other)}
    return render(request, "social/player.html", context)


@login_required
@require_POST
def request_friend(request: HttpRequest, user_id: int) -> HttpResponse:
    _run(request, services.send_friend_request, _user(request), _person(user_id))
    return _back(request)


@login_required
@require_POST
def accept(request: HttpRequest, request_id: int) -> HttpResponse:
    _run(request, services.accept_friend_request, _user(request), request_id,
         done=_("You are friends now."))  # fmt: skip
    return _back(request)


@login_required
@require_POST
def refuse(request: HttpRequest, request_id: int) -> HttpResponse:
    _run(request, services.refuse_friend_request, _user(request), request_id,
         done=_("Friend request refused."))  # fmt: skip
    return _back(request)


@login_required
@require_POST
def cancel(request: HttpRequest, user_id: int) -> HttpResponse:
    _run(request, services.cancel_friend_request, _user(request), _person(user_id),
         done=_("Friend request withdrawn."))  # fmt: skip
    return _back(request)


@login_required
@require_POST
def unfriend(request: HttpRequest, user_id: int) -> HttpResponse:
    _run(request, services.remove_friend, _user(request), _person(user_id),
         done=_("Removed from your friends."))  # fmt: skip
    return _back(request)


@login_required
@require_POST
def block(request: HttpRequest, user_id: int) -> HttpResponse:
    _run(request, services.block_user, _user(request), _person(user_id),
         done=_("Blocked: you will not see their messages, invitations or requests."))  # fmt: skip
    return _back(request)


@login_required
@require_POST
def unblock(request: HttpRequest, user_id: int) -> HttpResponse:
    _run(request, services.unblock_user, _user(request), _person(user_id),
         done=_("Unblocked."))  # fmt: skip
    return _back(request)


@login_required
@require_POST
def invite(request: HttpRequest, user_id: int) -> HttpResponse:
    """Invite a friend to the table the user sits at (a notification with the link)."""
    _run(request, services.invite_to_table, _user(request), _person(user_id),
         done=_("Invitation sent."))  # fmt: skip
    return _back(request)


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        services.mark_notifications_read(_user(request))
        return redirect("social:notifications")
    return render(
        request,
        "social/notifications.html",
        {"notifications": selectors.notifications_of(_user(request))[:100]},
    )
