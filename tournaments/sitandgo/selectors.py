"""Reads of sit-and-gos: which need a table step (the sweeper's part)."""

from __future__ import annotations

from games.models import Round, Seat
from games.selectors import LIVE_STATES
from tournaments.models import EntryState, Kind, State, Tournament
from tournaments.sitandgo import rules


def tournaments_needing_a_step() -> list[int]:
    """Running or finished tournaments whose table step has work now (read without locks):
    a table not playing a round seats someone who is out, is at an old level, is empty,
    or the tables are out of balance. What a lost ``table_step`` timer left undone."""
    due: list[int] = []
    for tournament in Tournament.objects.filter(
        # The table step is a sit-and-go's (an arena's tables are its pairing's).
        kind=Kind.SIT_AND_GO,
        state__in=[State.RUNNING, State.FINISHED],
        tables__broken_at__isnull=True,
    ).distinct():
        links = list(tournament.tables.filter(broken_at__isnull=True).select_related("table"))
        busy = set(
            Round.objects.filter(
                table_id__in=[link.table_id for link in links], state__in=LIVE_STATES
            ).values_list("table_id", flat=True)
        )
        playing = set(
            tournament.entries.filter(state=EntryState.PLAYING).values_list("user_id", flat=True)
        )
        seated: dict[int, list[int]] = {link.table_id: [] for link in links}
        for table_id, user_id in Seat.objects.filter(table_id__in=list(seated)).values_list(
            "table_id", "user_id"
        ):
            seated[table_id].append(user_id)
        free = [link for link in links if link.table_id not in busy]
        work = any(
            any(u not in playing for u in seated[link.table_id])
            or not seated[link.table_id]
            or (tournament.state == State.RUNNING and link.table.stake != tournament.stake)
            for link in free
        )
        if not work and tournament.state == State.RUNNING:
            moves, _left = rules.balancing_moves(
                {t: [u for u in users if u in playing] for t, users in seated.items()}, busy
            )
            work = bool(moves)
        if work:
            due.append(tournament.pk)
    return due
