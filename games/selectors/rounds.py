"""The rounds of a table: the one being played, the latest, and its ledger transfers."""

from __future__ import annotations

from games.models import Round, RoundState, Table
from ledger.models import Transfer

LIVE_STATES = (RoundState.ARRANGING, RoundState.SHOWDOWN)


FINISHED_STATES = (RoundState.SETTLED, RoundState.CANCELLED)


def active_round(table: Table, *, lock: bool = False) -> Round | None:
    """The round being arranged or shown at this table, if any."""
    rounds = Round.objects.filter(table=table, state__in=LIVE_STATES)
    if lock:
        rounds = rounds.select_for_update()
    return rounds.order_by("-number").first()


def latest_round(table: Table) -> Round | None:
    return Round.objects.filter(table=table).order_by("-number").first()


def round_transfer_ids(round_id: int) -> list[int]:
    """The ledger transfers of a round (holds, payouts, fee), oldest first."""
    return list(
        Transfer.objects.filter(round_id=round_id).order_by("pk").values_list("pk", flat=True)
    )
