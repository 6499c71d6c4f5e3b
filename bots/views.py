"""Quick play: one click to a table where bots make sure the round can start."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.models import User
from bots import services
from games.errors import SeatError


@login_required
@require_POST
def quick_play(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    try:
        table = services.quick_play(user)
    except SeatError as exc:
        messages.error(request, exc.message)
        return redirect("games:lobby")
    return redirect("games:table", table_id=table.pk)
