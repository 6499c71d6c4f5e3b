"""Arena pages. Each view is one service or selector call thick."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from tournaments import rules, selectors
from tournaments.arena import rules as arena_rules
from tournaments.arena import services as arena
from tournaments.arena.forms import ArenaForm
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.pages import tournament_action


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


join = tournament_action(arena.join, _("You joined the arena."))
pause = tournament_action(
    lambda user, tournament_id: arena.set_paused(user, tournament_id, True),
    _("Paused: you finish the board in play, then wait for nothing."),
)
resume = tournament_action(
    lambda user, tournament_id: arena.set_paused(user, tournament_id, False),
    _("You are back in the queue."),
)
start = tournament_action(arena.start_now, _("The arena started."))
cancel = tournament_action(arena.cancel_arena, _("The tournament was cancelled; buy-ins refunded."))
