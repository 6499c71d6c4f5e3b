"""Arena pages. Each view is one service or selector call thick."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from tournaments import rules, selectors
from tournaments.arena import rules as arena_rules
from tournaments.arena import services as arena
from tournaments.arena.forms import ArenaForm
from tournaments.errors import TournamentError
from tournaments.models import Tournament


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)  # every view here is behind login_required


@login_required
def arena_new(request: HttpRequest) -> HttpResponse:
    form = ArenaForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = arena.create_arena(_user(request), **form.cleaned_data)
        except TournamentError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("tournaments:detail", tournament_id=tournament.pk)
    return render(request, "tournaments/arena/new.html", {"form": form})


def arena_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The arena's page (``tournaments.views.tournament_detail`` hands an arena here)."""
    state = selectors.tournament_state(tournament.pk)
    entry = selectors.entry_of(tournament, request.user)
    me = next((r for r in state["standings"] if r["user"] == request.user.pk), None)
    return render(
        request,
        "tournaments/arena/detail.html",
        {
            "tournament": tournament,
            "state": state,
            "entry": entry,
            "me": me,
            "is_creator": tournament.created_by_id == request.user.pk,
            "fire_after": arena_rules.FIRE_AFTER,
            "prize_percents": rules.PRIZE_PERCENTS,
            "notes": selectors.outcome_notes(state),
        },
    )


def _act(
    request: HttpRequest, tournament_id: int, action: Callable[[], Any], done: str
) -> HttpResponseRedirect:
    try:
        action()
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return HttpResponseRedirect(reverse("tournaments:detail", args=[tournament_id]))


@login_required
@require_POST
def join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    user = _user(request)
    return _act(
        request,
        tournament_id,
        lambda: arena.join(user, tournament_id),
        _("You joined the arena."),
    )


@login_required
@require_POST
def pause(request: HttpRequest, tournament_id: int) -> HttpResponse:
    user = _user(request)
    return _act(
        request,
        tournament_id,
        lambda: arena.set_paused(user, tournament_id, True),
        _("Paused: you finish the board in play, then wait for nothing."),
    )


@login_required
@require_POST
def resume(request: HttpRequest, tournament_id: int) -> HttpResponse:
    user = _user(request)
    return _act(
        request,
        tournament_id,
        lambda: arena.set_paused(user, tournament_id, False),
        _("You are back in the queue."),
    )


@login_required
@require_POST
def start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    user = _user(request)
    return _act(
        request,
        tournament_id,
        lambda: arena.start_now(user, tournament_id),
        _("The arena started."),
    )


@login_required
@require_POST
def cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    user = _user(request)
    return _act(
        request,
        tournament_id,
        lambda: arena.cancel_arena(user, tournament_id),
        _("The tournament was cancelled; buy-ins refunded."),
    )
