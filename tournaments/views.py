"""Tournament pages. Each view is one service or selector call thick."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments import selectors, services, structure
from tournaments.errors import TournamentError
from tournaments.forms import SitAndGoForm
from tournaments.models import Kind, Tournament


@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    form = SitAndGoForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_sit_and_go(request.user, **form.cleaned_data)  # type: ignore[arg-type]
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
                    structure.PRIZE_PERCENTS,
                    [structure.MIN_PLAYERS]
                    + [most + 1 for most, _p in structure.PRIZE_PERCENTS[:-1]],
                    strict=True,
                )
            ],
        },
    )


@login_required
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if tournament.kind == Kind.ARENA:
        from tournaments.arena_views import arena_detail

        return arena_detail(request, tournament)
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
        },
    )


def tournament_state(request: HttpRequest, tournament_id: int) -> JsonResponse:
    get_object_or_404(Tournament, pk=tournament_id)
    return JsonResponse(selectors.tournament_state(tournament_id))


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
    from django.utils.translation import gettext as _

    return _act(request, tournament_id, services.register, _("You are registered."))


@login_required
@require_POST
def unregister(request: HttpRequest, tournament_id: int) -> HttpResponse:
    from django.utils.translation import gettext as _

    return _act(
        request, tournament_id, services.unregister, _("You withdrew; your buy-in was refunded.")
    )


@login_required
@require_POST
def start_now(request: HttpRequest, tournament_id: int) -> HttpResponse:
    from django.utils.translation import gettext as _

    return _act(
        request, tournament_id, services.start_now_with_bots, _("Bots took the free places.")
    )


@login_required
@require_POST
def cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    from django.utils.translation import gettext as _

    return _act(
        request,
        tournament_id,
        services.cancel,
        _("The tournament was cancelled; buy-ins refunded."),
    )
