"""Sit-and-go pages: its page (``tournaments.views.tournament_detail`` hands a sit-and-go
here) and its creator's and entrants' actions. Each view is one service or selector call
thick. Its create form is on the tournament list (``tournaments.views``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.sitandgo import services


def sitandgo_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The sit-and-go's page: the live standings, the levels and the prize table."""
    state = selectors.tournament_state(tournament.pk)
    entry = selectors.entry_of(tournament, request.user)
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "state": state,
            "entry": entry,
            "my_table": entry.table_id if entry is not None else None,
            "is_creator": tournament.created_by_id == request.user.pk,
            "notes": selectors.outcome_notes(state),
        },
    )


def _act(request: HttpRequest, tournament_id: int, action: Any, done: str) -> HttpResponseRedirect:
    try:
        action(request.user, tournament_id)
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return HttpResponseRedirect(reverse("tournaments:detail", args=[tournament_id]))


@login_required
@require_POST
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, services.register, _("You are registered."))


@login_required
@require_POST
def start_now(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request, tournament_id, services.start_now_with_bots, _("Bots took the free places.")
    )


@login_required
@require_POST
def cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        services.cancel,
        _("The tournament was cancelled; buy-ins refunded."),
    )
