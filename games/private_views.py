"""Private tables' pages: the invite link a guest opens, and the host's tools.

Each write is one call to ``games.services.private``; a refusal is shown in the user's
language on the page it came from (docs/social.md).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from accounts.models import User
from games import selectors
from games.errors import GameError
from games.forms import HostActionForm
from games.models import Seat, Table
from games.services import private


def invite(request: HttpRequest, token: str) -> HttpResponse:
    """The link the host shared: the table and its rules; sit (or watch), or log in first."""
    try:
        found = private.usable_invite(token)
    except GameError as exc:
        return render(request, "games/invite.html", {"refusal": exc.message}, status=410)
    table = found.table
    here = reverse("games:invite", kwargs={"token": token})
    user = request.user
    if request.method == "POST" and user.is_authenticated:
        try:
            if request.POST.get("action") == "watch":
                private.admit(user, token)
            else:
                private.sit_by_invite(user, token)
        except GameError as exc:
            messages.error(request, exc.message)
            return redirect(here)
        return redirect("games:table", table_id=table.pk)
    context: dict[str, Any] = {
        "table": table,
        "rules": table.rules,
        "taken": table.seat_set.count(),
        "expires_at": found.expires_at,
        "next_query": urlencode({"next": here}),
        "seat": Seat.objects.filter(user=user).select_related("table").first()
        if user.is_authenticated
        else None,
    }
    return render(request, "games/invite.html", context)


@login_required
def host_tools(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("host"), pk=table_id)
    user: User = request.user  # type: ignore[assignment]
    try:
        private.ensure_hosted(table)  # a tournament's table: no host page, no host action
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("games:table", table_id=table.pk)
    if not selectors.is_acting_host(table, user):
        messages.error(request, _("Only the table's host can do this."))
        return redirect("games:table", table_id=table.pk)
    if request.method == "POST":
        form = HostActionForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("This form is missing a field or has a wrong value."))
            return redirect("games:host_tools", table_id=table.pk)
        try:
            _host_action(user, table, form.cleaned_data)
        except GameError as exc:
            messages.error(request, exc.message)
        except User.DoesNotExist:
            messages.error(request, _("No player has this name."))
        return redirect("games:host_tools", table_id=table.pk)
    invites = [
        {
            "invite": invite,
            "url": request.build_absolute_uri(
                reverse("games:invite", kwargs={"token": invite.token})
            ),
        }
        for invite in selectors.valid_invites(table).order_by("-created_at")
    ]
    context = {
        "table": table,
        "invites": invites,
        "holds": selectors.active_holds(table).select_related("user"),
        "seated": table.seat_set.select_related("user").exclude(user=user),
        "round_running": selectors.active_round(table) is not None,
        "invite_hours": settings.TABLE_INVITE_HOURS,
        "hold_minutes": settings.TABLE_SEAT_HOLD_MINUTES,
    }
    return render(request, "games/host_tools.html", context)


def _host_action(user: User, table: Table, data: dict[str, Any]) -> None:
    """One host tool, from a valid HostActionForm's data."""
    action = data["action"]
    if action == "new_invite":
        private.create_invite(user, table.pk)
    elif action == "revoke":
        private.revoke_invite(user, data["invite"])
    elif action == "hold":
        friend = User.objects.get(username=data["username"].strip(), is_bot=False)
        private.hold_seat(user, table.pk, friend)
    elif action == "release":
        private.release_hold(user, table.pk, data["user"])
    elif action == "remove":
        private.remove_player(user, table.pk, data["user"])
