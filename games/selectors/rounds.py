"""The rounds of a table: the one being played, the latest, and its ledger transfers."""

from __future__ import annotations

from datetime import datetime, time
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from core.compiled import Compiled
from games.models import Round, RoundEvent, RoundPlayer, RoundState, Table
from ledger.models import Transfer

LIVE_STATES = (RoundState.ARRANGING, RoundState.SHOWDOWN)


FINISHED_STATES = (RoundState.SETTLED, RoundState.CANCELLED)


def rounds_dealt_today(user_id: int) -> int:
    """The rounds dealt to a player since the Vietnamese day began (a bot account's cap)."""
    start = timezone.make_aware(datetime.combine(timezone.localdate(), time.min))
    return RoundPlayer.objects.filter(user_id=user_id, round__dealt_at__gte=start).count()


def _active(table_id: int, lock: bool = False) -> QuerySet[Round]:
    rounds = Round.objects.filter(table_id=table_id, state__in=LIVE_STATES)
    if lock:
        rounds = rounds.select_for_update()
    return rounds.order_by("-number")[:1]


# Every sit-down, stand-up, ready and countdown asks it: compiled once (core.compiled).
_ACTIVE = {
    lock: Compiled(lambda table_id, lock=lock: _active(table_id, lock)) for lock in (False, True)
}


def active_round(table: Table, *, lock: bool = False) -> Round | None:
    """The round being arranged or shown at this table, if any."""
    return _ACTIVE[lock].first(table.pk)


def _latest(table_id: int) -> QuerySet[Round]:
    return Round.objects.filter(table_id=table_id).order_by("-number")[:1]


# Every deal and every socket's snapshot reads it: compiled once (core.compiled).
_LATEST = Compiled(_latest)
# Without its summary and ratings (JSON decoded at every read): for the steps between
# rounds, which ask only whether it ended and when, and its number.
_LATEST_HEAD = Compiled(lambda table_id: _latest(table_id).defer("settlement", "ratings"))


def latest_round(table: Table, *, summary: bool = True) -> Round | None:
    """The table's latest round: the one being played, if any (games.services.rounds.is_live).

    ``summary=False``: its ``settlement`` and ``ratings`` are left unread (read on first use,
    a query each)."""
    return (_LATEST if summary else _LATEST_HEAD).first(table.pk)


def round_transfer_ids(round_id: int) -> list[int]:
    """The ledger transfers of a round (holds, payouts, fee), oldest first."""
    return list(
        Transfer.objects.filter(round_id=round_id).order_by("pk").values_list("pk", flat=True)
    )


BETWEEN_KINDS = ("wait", "ready")
"""The round log's entries of games.services.between."""


def between_view(table: Table, latest: Round | None) -> dict[str, Any] | None:
    """Who has said ready and who asked to wait since ``latest`` ended (user ids), while the
    next deal is counted down; None otherwise (a round is played, or no deal is due)."""
    if latest is None or not latest.is_finished or table.start_at is None:
        return None
    kept = kept_between(table, latest.pk)
    if kept is not None:
        return kept
    ready: list[int] = []
    waited: list[int] = []
    for kind, user_id in _between_entries(latest.pk):
        if kind == "wait":  # asking to wait takes back an earlier "ready"
            waited.append(user_id)
            ready = [u for u in ready if u != user_id]
        elif user_id not in ready:
            ready.append(user_id)
    return {"round": latest.pk, "ready": ready, "waited": waited}


def kept_between(table: Table, round_id: int) -> dict[str, Any] | None:
    """Who said what since ``round_id`` ended as the table row keeps it (``Table.between``,
    written with each ready and wait entry: games.services.between), or None when the row
    names another round (or none)."""
    kept = table.between
    if kept is None or kept.get("round") != round_id:
        return None
    return {"round": round_id, "ready": list(kept["ready"]), "waited": list(kept["waited"])}


def kept_people(table: Table, round_id: int) -> list[int] | None:
    """The people (not bots) seated at the table, as the row keeps them for the countdown
    after ``round_id`` (``Table.between["people"]``: written at the round's end, dropped at
    every change of a seat), or None when the row does not say."""
    kept = table.between
    if kept is None or kept.get("round") != round_id or kept.get("people") is None:
        return None
    return list(kept["people"])


_BETWEEN_SQL = (
    f"SELECT kind, user_id FROM {RoundEvent._meta.db_table}"
    f" WHERE round_id = %s AND kind IN ({', '.join(['%s'] * len(BETWEEN_KINDS))}) ORDER BY seq"
)


def _between_entries(round_id: int) -> list[tuple[str, int]]:
    """The round log's ``ready`` and ``wait`` entries, in order: (kind, user id). Its SQL is
    written once (every ``ready`` reads it; the ORM compiled it afresh each time)."""
    with connection.cursor() as cursor:
        cursor.execute(_BETWEEN_SQL, [round_id, *BETWEEN_KINDS])
        return [(kind, user_id) for kind, user_id in cursor.fetchall()]
