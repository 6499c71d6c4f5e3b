"""Sit-and-go pages: its page (``tournaments.views.tournament_detail`` hands a sit-and-go
here) and its creator's and entrants' actions. Each view is one service or selector call
thick. Its create form is on the tournament list (``tournaments.views``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from tournaments import selectors
from tournaments.models import Tournament
from tournaments.pages import tournament_action
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


register = tournament_action(services.register, _("You are registered."))
start_now = tournament_action(services.start_now_with_bots, _("Bots took the free places."))
cancel = tournament_action(services.cancel, _("The tournament was cancelled; buy-ins refunded."))
