"""The table page of a tournament's table shows the tournament (games cannot import it)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tournaments import selectors


def table_tournament(request: HttpRequest) -> dict[str, Any]:
    match = getattr(request, "resolver_match", None)
    if match is None or match.view_name != "games:table":
        return {}
    tournament = selectors.table_of_tournament(int(match.kwargs["table_id"]))
    if tournament is None:
        return {}
    return {"table_tournament": selectors.tournament_state(tournament.pk)}
