"""Friends, blocks and table invitations. Each write is one service call; a
refusal comes back as a message in the user's language on the page it came from."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.views import safe_next
from games.errors import GameError
from games.models import Seat
from social import selectors, services
from social.forms import ChallengeForm
from social.models import Friendship


def _user(request: HttpRequest) -> User:
    return request.user  # type: ignore[return-value]


def _back(request: HttpRequest) -> HttpResponse:
    """Back to the page the form was on (a safe path on this site), else the friends page."""
    return redirect(safe_next(request) or "social:friends")


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


def _run(request: HttpRequest, action: Any, *args: Any, done: str = "", **kwargs: Any) -> bool:
    try:
        result = action(*args, **kwargs)
    except GameError as exc:  # a SocialError, or a table's refusal it passes on (the rules)
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


def player(request: HttpRequest, user_id: int) -> HttpResponse:
    """The old address of a player's card. A player has one page, ``/players/<id>/``
    (profiles), which carries the befriend and block buttons too; a bot had no card."""
    return redirect("profiles:profile", user_id=_person(user_id).pk, permanent=True)


def _on_player(service: Any, done: str | Promise = "") -> Any:
    """A POST that calls ``service(user, that player)``, then goes back where it came from."""

    @login_required
    @require_POST
    def view(request: HttpRequest, user_id: int) -> HttpResponse:
        _run(request, service, _user(request), _person(user_id), done=str(done))
        return _back(request)

    return view


def _on_request(service: Any, done: str | Promise) -> Any:
    """A POST that calls ``service(user, id)`` on what the URL names (a friend request or a
    challenge, to or from them), then goes back where it came from."""

    @login_required
    @require_POST
    def view(request: HttpRequest, **ids: int) -> HttpResponse:
        (pk,) = ids.values()
        _run(request, service, _user(request), pk, done=str(done))
        return _back(request)

    return view


request_friend = _on_player(services.send_friend_request)
cancel = _on_player(services.cancel_friend_request, gettext_lazy("Friend request withdrawn."))
unfriend = _on_player(services.remove_friend, gettext_lazy("Removed from your friends."))
block = _on_player(
    services.block_user,
    gettext_lazy("Blocked: you will not see their messages, invitations or requests."),
)
unblock = _on_player(services.unblock_user, gettext_lazy("Unblocked."))
# Invite a friend to the table the user sits at (a notification with the link).
invite = _on_player(services.invite_to_table, gettext_lazy("Invitation sent."))
accept = _on_request(services.accept_friend_request, gettext_lazy("You are friends now."))
refuse = _on_request(services.refuse_friend_request, gettext_lazy("Friend request refused."))


@login_required
@require_POST
def challenge(request: HttpRequest, user_id: int) -> HttpResponse:
    """The player page's "Challenge" form: a stake and a rules preset, checked by the
    create-table form (``ChallengeForm``)."""
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        label = form.fields[field].label if field in form.fields else ""
        messages.error(request, f"{label}: {errors[0]}" if label else str(errors[0]))
        return _back(request)
    other = get_object_or_404(User, pk=user_id, is_active=True)
    done = _("Challenge sent: %(name)s has %(minutes)s minutes to answer.") % {
        "name": other.shown_name,
        "minutes": settings.CHALLENGE_EXPIRY_MINUTES,
    }
    _run(request, services.challenge, _user(request), other, **form.challenge_options(), done=done)
    return _back(request)


@login_required
@require_POST
def accept_challenge(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Accept from the inbox: straight to the table both now sit at."""
    try:
        accepted = services.accept_challenge(_user(request), challenge_id)
    except GameError as exc:  # the challenge's refusals, and sitting down's (seated elsewhere…)
        messages.error(request, exc.message)
        return _back(request)
    return redirect(reverse("games:table", kwargs={"table_id": accepted.table_id}))


decline_challenge = _on_request(services.decline_challenge, gettext_lazy("Challenge declined."))
cancel_challenge = _on_request(services.cancel_challenge, gettext_lazy("Challenge withdrawn."))


def notifications(request: HttpRequest) -> HttpResponse:
    """The old page of friend requests and invitations: they are in the one inbox now. A
    permanent redirect that keeps the method, so an old form's "mark as read" still works."""
    return redirect("inbox", permanent=True, preserve_request=True)
