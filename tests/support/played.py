"""A two-player round played to its settlement in-process (submit, then run every timer)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import services
from games.models import Round, RoundState, Table

QUICK_RULES = {"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 5}
"""A table's timings for in-process tests: 30 s to arrange, 2 s reveals, a 5 s countdown."""


def quick_table(host: Any, name: str = "Bàn thử", **options: Any) -> Table:
    """A table of 10 xu a chi on ``QUICK_RULES``, opened by ``host`` (``options``: the
    table's other settings, such as ``allow_bots``)."""
    return services.create_table(
        host, name=name, stake=10, rules_overrides=dict(QUICK_RULES), **options
    )


def deal_when_due(table_id: int) -> Round | None:
    """The table's countdown run out now, and its timer run: the deal, or None (what
    ``start_round_when_due`` returns). Due *now*, not a second ago: a timer that late is
    paced (games.services.countdown.late_turn), so a test dealing round after round on a
    fast machine, several within a pacing turn, found its deals put off."""
    Table.objects.filter(pk=table_id).update(start_at=timezone.now())
    return services.start_round_when_due(table_id)


def deal_for_two(players: list[Any], table: Table) -> Round:
    """players[0] and players[1] sit and players[0] starts the round: dealt, not arranged."""
    services.sit(players[0], table.pk)
    services.sit(players[1], table.pk)
    return services.start_round(players[0], table.pk)


def play_to_the_end(players: list[Any], table: Table) -> Round:
    """players[0] and players[1] sit, submit their cards as dealt, and the round settles."""
    round_ = deal_for_two(players, table)
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(
            rp.user, round_.pk, [rp.cards[:5], rp.cards[5:10], rp.cards[10:]]
        )
    return run_timers(round_)


def run_timers(round_: Round, steps: int = 6) -> Round:
    """Fire each timer step at once (the deadlines moved to the past) until it is settled,
    ``steps`` at the most."""
    for _ in range(steps):
        round_.refresh_from_db()
        if round_.state == RoundState.SETTLED:
            break
        Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=5))
        services.advance_round(round_.pk, round_.state, round_.phase)
    round_.refresh_from_db()
    return round_
