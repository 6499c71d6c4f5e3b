"""Rounds: ``round_submit`` (an arrangement or a draft, as the socket's ``submit`` and
``draft``), ``round_get`` (one round in full) and ``rounds_export`` (NDJSON)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Query, Router, Schema

from api import selectors
from api.errors import SCOPED, ApiError, ndjson, refusals
from api.root import Token, grant_of
from api.schemas import RoundFull, Submission, SubmitAnswer
from games import services as game_services
from games.models import Round
from games.selectors import history
from games.selectors.engine import is_foul_arrangement

router = Router(tags=["rounds"])

EXPORT_MAX = 10_000


def _utc(value: datetime | None) -> datetime | None:
    """A time of any offset (or none: Vietnam's) in UTC, as the database keeps it."""
    if value is None:
        return None
    try:
        if timezone.is_naive(value):
            value = timezone.make_aware(value)
        return value.astimezone(UTC)
    except (OverflowError, ValueError):
        raise ApiError(400, "malformed", _("That time is out of range.")) from None


def _round_id(value: int) -> int:
    if not 0 < value < 2**63:
        raise ApiError(404, "not_found", _("This table or round does not exist."))
    return value


@router.post(
    "/rounds/{round_id}/submit",
    operation_id="round_submit",
    response={200: SubmitAnswer},
    auth=Token("play"),
    openapi_extra=refusals(
        *SCOPED,
        "malformed",
        "chi_count",
        "chi_size",
        "card_unknown",
        "card_duplicate",
        "card_not_dealt",
        "not_found",
        "not_in_round",
        "left",
        "not_arranging",
        "too_late",
        "stale_version",
        "table_busy",
    ),
)
def round_submit(request: HttpRequest, round_id: int, body: Submission) -> SubmitAnswer:
    """Submit (or replace) your arrangement until the deadline or the showdown, or with
    ``draft: true`` keep a layout in progress (played for you at the deadline). The same
    services, refusals and deadline as the socket's ``submit`` and ``draft``. Safe to
    resend: the arrangement already accepted, sent again with the same ``ref``, changes
    nothing and gets the same answer, even once the showdown has begun."""
    user = grant_of(request).user
    round_id = _round_id(round_id)
    try:
        if body.draft:
            game_services.save_draft(user, round_id, body.chi, seen_version=body.version)
            chi = body.chi
        else:
            player = game_services.submit_arrangement(
                user, round_id, body.chi, seen_version=body.version
            )
            chi = player.arrangement or body.chi
    except (KeyError, TypeError, ValueError):
        raise ApiError(
            400, "malformed", _("This message is missing a field or has a wrong value.")
        ) from None
    game_services.heard_from_program(user)
    round_ = Round.objects.get(pk=round_id)
    return SubmitAnswer(
        round=round_id,
        draft=body.draft,
        ref=body.ref,
        foul=is_foul_arrangement(round_.rules, [list(c) for c in chi]),
    )


class ExportFilters(Schema):
    since: datetime | None = None
    until: datetime | None = None
    max: int = 100
    table: int | None = None
    preset: str | None = None
    rated: bool | None = None


@router.get(
    "/rounds/export",
    operation_id="rounds_export",
    response={200: None},
    auth=Token("export"),
    openapi_extra=ndjson(
        "One finished round a line (as round_get, without `view`), oldest first.",
        refusals(*SCOPED, "malformed"),
    ),
)
def rounds_export(request: HttpRequest, filters: Query[ExportFilters]) -> StreamingHttpResponse:
    """Your finished rounds as NDJSON, one a line, oldest first: ``since`` / ``until``
    (ISO times, by the deal), ``max`` (1–10000, default 100), ``table``, ``preset``,
    ``rated``. Needs ``export``."""
    if not 1 <= filters.max <= EXPORT_MAX:
        raise ApiError(400, "malformed", _("max is from 1 to %(n)d.") % {"n": EXPORT_MAX})
    user = grant_of(request).user
    rows = selectors.exported_rounds(
        user,
        since=_utc(filters.since),
        until=_utc(filters.until),
        table=filters.table if filters.table is None or 0 < filters.table < 2**63 else -1,
        preset=filters.preset,
        rated=filters.rated,
        limit=filters.max,
    )

    def lines() -> Iterator[bytes]:
        for line in selectors.export_lines(user, rows):
            yield json.dumps(line, ensure_ascii=False).encode() + b"\n"

    return StreamingHttpResponse(lines(), content_type="application/x-ndjson")


@router.get(
    "/rounds/{round_id}",
    operation_id="round_get",
    response={200: RoundFull},
    auth=Token("read", "play", "export"),
    by_alias=True,  # a transfer's ``from``
    openapi_extra=refusals(*SCOPED, "malformed", "not_found"),
)
def round_get(request: HttpRequest, round_id: int) -> dict[str, Any]:
    """One round: while it is played, what the table shows you (your cards only); once
    settled, every hand and arrangement, the results per chi and pair, the ledger's
    transfers and your postings, and the seeds to verify the deal (docs/protocol.md,
    "Provably fair deals")."""
    user = grant_of(request).user
    round_ = history.viewable_round(user, _round_id(round_id))
    if round_ is None:
        raise ApiError(404, "not_found", _("This table or round does not exist."))
    if round_.players.filter(user=user).exists():
        game_services.heard_from_program(user)
    return selectors.round_in_full(round_, user)
