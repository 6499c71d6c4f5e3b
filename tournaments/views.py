"""Tournament pages of either kind: the list (with the sit-and-go create form), a
tournament's page (handed to its kind's own view), its state, withdrawing. Each view is one
service or selector call thick; each kind's own actions are its ``views``."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from tournaments import rules, selectors, services
from tournaments.arena import views as arena_views
from tournaments.errors import TournamentError
from tournaments.models import Kind, Tournament
from tournaments.sitandgo import services as sitandgo
from tournaments.sitandgo import views as sitandgo_views
from tournaments.sitandgo.forms import SitAndGoForm


@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    form = SitAndGoForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = sitandgo.create_sit_and_go(request.user, **form.cleaned_data)  # type: ignore[arg-type]
        except TournamentError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("tournaments:detail", tournament_id=tournament.pk)
    return render(
        request,
        "tournaments/list.html",
        {
            "form": form,
            # Arenas have their own section (arena/_list_section.html): sit-and-gos only.
            "tournaments": selectors.listed_tournaments().exclude(kind=Kind.ARENA),
            "finished": selectors.recent_finished(),
            "prize_table": [
                (low, most, percents)
                for (most, percents), low in zip(
                    rules.PRIZE_PERCENTS,
                    [rules.MIN_PLAYERS] + [most + 1 for most, _p in rules.PRIZE_PERCENTS[:-1]],
                    strict=True,
                )
            ],
        },
    )


@login_required
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if tournament.kind == Kind.ARENA:
        return arena_views.arena_detail(request, tournament)
    return sitandgo_views.sitandgo_detail(request, tournament)


def tournament_state(request: HttpRequest, tournament_id: int) -> JsonResponse:
    get_object_or_404(Tournament, pk=tournament_id)
    return JsonResponse(selectors.tournament_state(tournament_id))


@login_required
@require_POST
def unregister(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Withdraw before the start, from either kind's page."""
    try:
        services.unregister(cast(User, request.user), tournament_id)  # behind login_required
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You withdrew; your buy-in was refunded."))
    return HttpResponseRedirect(reverse("tournaments:detail", args=[tournament_id]))
