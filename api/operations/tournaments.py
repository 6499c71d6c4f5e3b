"""Tournaments: ``tournaments_list``, ``tournament_standings``, ``tournament_join``,
``tournament_withdraw``: the services the tournament pages call."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router

from api.errors import AUTHENTICATED, SCOPED, ApiError, refusals
from api.root import Token, grant_of
from api.schemas import EntryAnswer, TournamentList, TournamentState
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.arena import services as arena_services
from tournaments.models import Entry, Kind, Tournament
from tournaments.sitandgo import services as sitandgo_services

router = Router(tags=["tournaments"])


def _tournament(tournament_id: int) -> Tournament:
    found = (
        Tournament.objects.filter(pk=tournament_id).first() if 0 < tournament_id < 2**63 else None
    )
    if found is None:
        raise ApiError(404, "not_found", _("No such tournament."))
    return found


@router.get(
    "/tournaments",
    operation_id="tournaments_list",
    response={200: TournamentList},
    auth=Token(),
    openapi_extra=refusals(*AUTHENTICATED),
)
def tournaments_list(request: HttpRequest) -> dict[str, Any]:
    """The tournaments open for registration or running (the list page's), with your
    entry's state in each (``you``) and whether they take bots."""
    user = grant_of(request).user
    listed = list(tournament_selectors.listed_tournaments()[:200])
    mine = dict(
        Entry.objects.filter(user=user, tournament__in=listed).values_list("tournament_id", "state")
    )
    return {
        "tournaments": [
            {
                "id": t.pk,
                "name": t.name,
                "kind": t.kind,
                "state": t.state,
                "buy_in": t.buy_in,
                "players": t.players,
                "registered": t.registered,  # type: ignore[attr-defined]
                "allow_bots": t.allow_bots,
                "preset": t.preset,
                "starts_at": t.starts_at.isoformat() if t.starts_at else None,
                "you": mine.get(t.pk),
            }
            for t in listed
        ]
    }


@router.get(
    "/tournaments/{tournament_id}",
    operation_id="tournament_standings",
    response={200: TournamentState},
    auth=Token(),
    openapi_extra=refusals(*AUTHENTICATED, "malformed", "not_found"),
)
def tournament_standings(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """A tournament's whole public state, standings included: the tournament socket's
    ``tournament`` message (docs/protocol.md#tournaments)."""
    return tournament_selectors.tournament_state(_tournament(tournament_id).pk)


@router.post(
    "/tournaments/{tournament_id}/join",
    operation_id="tournament_join",
    response={200: EntryAnswer},
    auth=Token("tournament"),
    openapi_extra=refusals(
        *SCOPED,
        "malformed",
        "not_found",
        "closed",
        "full",
        "bots_not_allowed",
        "engaged",
        "seated",
        "balance_too_low",
    ),
)
def tournament_join(request: HttpRequest, tournament_id: int) -> EntryAnswer:
    """Register (a sit-and-go) or join (an arena), paying the buy-in into the pool; a
    bot account only where the tournament takes bots. Joining twice is one entry."""
    user = grant_of(request).user
    tournament = _tournament(tournament_id)
    if tournament.kind == Kind.ARENA:
        entry = arena_services.join(user, tournament.pk)
    else:
        entry = sitandgo_services.register(user, tournament.pk)
    return EntryAnswer(tournament=tournament.pk, state=entry.state)


@router.post(
    "/tournaments/{tournament_id}/withdraw",
    operation_id="tournament_withdraw",
    response={200: EntryAnswer},
    auth=Token("tournament"),
    openapi_extra=refusals(
        *SCOPED, "malformed", "not_found", "not_registered", "started", "finished", "called_off"
    ),
)
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> EntryAnswer:
    """Withdraw before the start: the buy-in comes back from the pool."""
    entry = tournament_services.unregister(grant_of(request).user, _tournament(tournament_id).pk)
    return EntryAnswer(tournament=entry.tournament_id, state=entry.state)
