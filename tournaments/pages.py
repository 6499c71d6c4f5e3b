"""What the pages of both kinds share (``sitandgo`` and ``arena`` stay apart, above it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.functional import Promise
from django.views.decorators.http import require_POST

from accounts.models import User
from tournaments.errors import TournamentError


def tournament_action(
    service: Callable[[User, int], Any], done: str | Promise
) -> Callable[[HttpRequest, int], HttpResponse]:
    """A button's view: a logged-in POST calls ``service(user, tournament_id)``, says ``done``
    or the refusal, and goes back to the tournament's page."""

    @login_required
    @require_POST
    def view(request: HttpRequest, tournament_id: int) -> HttpResponse:
        try:
            service(cast(User, request.user), tournament_id)
        except TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, str(done))  # in the language of this request
        return HttpResponseRedirect(reverse("tournaments:detail", args=[tournament_id]))

    return view
