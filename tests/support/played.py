"""A two-player round played to its settlement in-process (submit, then run every timer)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import services
from games.models import Round, RoundState, Table


def play_to_the_end(players: list[Any], table: Table) -> Round:
    """players[0] and players[1] sit, submit their cards as dealt, and the round settles."""
    services.sit(players[0], table.pk)
    services.sit(players[1], table.pk)
    round_ = services.start_round(players[0], table.pk)
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(
            rp.user, round_.pk, [rp.cards[:5], rp.cards[5:10], rp.cards[10:]]
        )
    return run_timers(round_)


def run_timers(round_: Round) -> Round:
    """Fire each timer step at once (the deadlines moved to the past) until it is settled."""
    for _ in range(6):
        round_.refresh_from_db()
        if round_.state == RoundState.SETTLED:
            break
        Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=5))
        services.advance_round(round_.pk, round_.state, round_.phase)
    round_.refresh_from_db()
    return round_
