"""The API's reads: a round in full (``round_get``, ``rounds_export``), built from the
games' own selectors and payload builder, so the API never shows more than the table."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from accounts.models import User
from games import selectors as game_selectors
from games.models import Round, RoundPlayer, RoundState
from games.selectors import history
from ledger.models import Transfer


def round_in_full(round_: Round, viewer: User) -> dict[str, Any]:
    """The round as ``viewer`` may see it now: the socket's round view (their own cards
    only until the showdown, the showdown as it has been revealed), and once the round is
    over every hand, arrangement, per-chi and pair result, ledger transfer and seed."""
    finished = round_.is_finished
    players = list(round_.players.select_related("user").order_by("position"))
    view = game_selectors.round_view(round_, viewer, players)
    rows: list[dict[str, Any]] = []
    withheld = bool(
        view.get("reveal", {}).get("withheld") or view.get("summary", {}).get("withheld")
    )
    for p in players:
        row: dict[str, Any] = {
            "position": p.position,
            "user": p.user_id,
            "name": p.user.shown_name,
            "is_bot": p.user.plays_as_bot,
            "status": p.status,
        }
        if (finished and not withheld) or p.user_id == viewer.pk:
            row.update(
                {
                    "cards": p.cards,
                    "arrangement": p.arrangement,
                    "auto_arranged": p.auto_arranged or None,
                    "left_after_chi": p.left_after_chi,
                    "units": p.units if finished else None,
                    "xu": p.xu if finished else None,
                }
            )
        rows.append(row)
    show = finished and not withheld
    return {
        "id": round_.pk,
        "table": round_.table_id,
        "number": round_.number,
        "state": round_.state,
        "preset": round_.table.preset,
        "stake": round_.stake,
        "stakes_in": round_.table.stakes_in,
        "finished": finished,
        "view": view,
        "players": rows,
        "pairs": history.chi_results(round_) if show else [],
        "postings": [
            {
                "transfer": posting.transfer_id,
                "kind": posting.transfer.kind,
                "delta": posting.delta,
                "balance_after": posting.balance_after,
            }
            for posting in history.round_postings(viewer, round_.pk)
        ],
        "transfers": _transfers(round_) if show else [],
        "seeds": {
            "commitment": round_.server_seed_hash,
            "client_seeds": round_.client_seeds,
            # The server seed once revealed (a duplicate board's once the board is).
            "server_seed": (view.get("summary") or view.get("voided") or {}).get("server_seed", "")
            if show
            else "",
            "algorithm": "games/rules/fair.py: HMAC-SHA256 stream, Fisher-Yates; seat k gets "
            "deck[13k:13k+13]",
        },
    }


def _transfers(round_: Round) -> list[dict[str, Any]]:
    return [
        {
            "id": t.pk,
            "kind": t.kind,
            "amount": t.amount,
            "from": t.debit.key,
            "to": t.credit.key,
            "idempotency_key": t.idempotency_key,
        }
        for t in Transfer.objects.filter(round_id=round_.pk)
        .select_related("debit", "credit")
        .order_by("pk")
    ]


def exported_rounds(
    user: User,
    *,
    since: datetime | None,
    until: datetime | None,
    table: int | None,
    preset: str | None,
    rated: bool | None,
    limit: int,
) -> list[RoundPlayer]:
    """The user's finished rounds, oldest first, with the export's filters."""
    rows = (
        history.rounds_played(user)
        .filter(round__state__in=[RoundState.SETTLED, RoundState.CANCELLED])
        .select_related("round__table", "round__board")
        .order_by("round__dealt_at", "round_id")
    )
    if since is not None:
        rows = rows.filter(round__dealt_at__gte=since)
    if until is not None:
        rows = rows.filter(round__dealt_at__lt=until)
    if table is not None:
        rows = rows.filter(round__table_id=table)
    if preset:
        rows = rows.filter(round__table__preset=preset)
    if rated is not None:
        rows = rows.filter(round__ratings__rated=rated)
    # Read here, not while the answer streams: a refusal (a time the database cannot hold)
    # is an error answer, never a stream cut short.
    return list(rows[:limit])


def export_lines(user: User, rows: list[RoundPlayer]) -> Iterator[dict[str, Any]]:
    for row in rows:
        full = round_in_full(row.round, user)
        full.pop("view")
        full["dealt_at"] = row.round.dealt_at.isoformat()
        full["settled_at"] = row.round.settled_at.isoformat() if row.round.settled_at else None
        full["rated"] = (row.round.ratings or {}).get("rated")
        yield full
