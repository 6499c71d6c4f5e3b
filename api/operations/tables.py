"""Tables: ``tables_list`` (the lobby's filters), ``tables_create`` (the lobby's form),
``table_sit`` and ``table_leave``: the services the lobby and the table socket call."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.db.models import Count, F
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Query, Router, Schema, Status

from api.errors import SCOPED, ApiError, ensure_valid, refusals
from api.root import Token, grant_of
from api.schemas import (
    CreatedTable,
    LeaveAnswer,
    NewTable,
    Seating,
    SitRequest,
    TablePage,
    TableRow,
)
from games import selectors as game_selectors
from games import services as game_services
from games.errors import SeatError
from games.forms import CreateTableForm
from games.models import Seat, Table

router = Router(tags=["tables"])

PAGE_SIZE = 50

# What sitting can meet (games.services.seats.sit, with social's and the tournaments'
# refusals through games.signals.sit_requested), as the socket's ``sit``.
SIT_REFUSALS = (
    "already_seated",
    "table_closed",
    "assigned_seats",
    "engaged",
    "join_refused",
    "you_blocked",
    "private_table",
    "suspended",
    "inactive",
    "balance_too_low",
    "table_full",
    "seat_held",
    "seat_taken",
    "bots_not_allowed",
    "bot_round_cap",
    "table_busy",
)


class TableFilters(Schema):
    """The lobby's filters: stake range, rules preset, free seats only; and bots welcome."""

    min_stake: int | None = None
    max_stake: int | None = None
    preset: str | None = None
    free: bool = False
    bots: bool | None = None
    page: int = 1


@router.get(
    "/tables",
    operation_id="tables_list",
    response={200: TablePage},
    auth=Token("read", "play"),
    openapi_extra=refusals(*SCOPED, "malformed"),
)
def tables_list(request: HttpRequest, filters: Query[TableFilters]) -> dict[str, Any]:
    """The lobby's open public tables, cheapest first, a page of 50 at a time."""
    tables = game_selectors.open_tables().annotate(taken_seats=Count("seat_set"))
    if filters.min_stake is not None:
        tables = tables.filter(stake__gte=filters.min_stake)
    if filters.max_stake is not None:
        tables = tables.filter(stake__lte=filters.max_stake)
    if filters.preset:
        tables = tables.filter(preset=filters.preset)
    if filters.free:
        tables = tables.filter(taken_seats__lt=F("seats"))
    if filters.bots is not None:
        tables = tables.filter(allow_bots=filters.bots)
    paginator = Paginator(tables, PAGE_SIZE)
    page = paginator.get_page(max(1, min(filters.page, 10**6)))
    return {
        "tables": [game_selectors.lobby_row(t, taken=t.taken_seats) for t in page.object_list],
        "page": page.number,
        "pages": paginator.num_pages,
        "total": paginator.count,
    }


@router.post(
    "/tables",
    operation_id="tables_create",
    response={201: CreatedTable},
    auth=Token("play"),
    openapi_extra=refusals(
        *SCOPED,
        "malformed",
        "invalid",
        "text_invisible",
        "text_marks",
        "text_too_long",
        "bad_rules",
        "too_many_tables",
        "creating_too_fast",
        # Taking its first seat (``sit_down``) meets what sitting meets at a new table.
        "already_seated",
        "engaged",
        "suspended",
        "inactive",
        "balance_too_low",
        "bots_not_allowed",
        "bot_round_cap",
        "table_busy",
    ),
)
def tables_create(request: HttpRequest, body: NewTable) -> Status[Any]:
    """Open a table with house rules: validated by the lobby's own form, opened by the
    lobby's own service (``sit_down``: take its first seat at once). Answers as
    ``table_sit`` does (``table``: its id, ``seated``, ``position``) and the new table as
    ``tables_list`` lists it (``row``)."""
    data = {k: v for k, v in body.dict().items() if v is not None}
    # A checkbox form: a false box is one left out.
    for key in ("is_private", "sit_down", "allow_bots"):
        if data.get(key) is False:
            data.pop(key)
    form = CreateTableForm(data)
    ensure_valid(form)
    user = grant_of(request).user
    table = game_services.open_table(user, **form.table_options())
    table = Table.objects.select_related("host").get(pk=table.pk)
    seat = Seat.objects.filter(user=user, table=table).first()
    return Status(
        201,
        CreatedTable(
            table=table.pk,
            seated=seat is not None,
            position=seat.position if seat is not None else None,
            row=TableRow(**game_selectors.lobby_row(table)),
        ),
    )


@router.post(
    "/tables/{table_id}/sit",
    operation_id="table_sit",
    response={200: Seating},
    auth=Token("play"),
    openapi_extra=refusals(*SCOPED, "malformed", "not_found", *SIT_REFUSALS),
)
def table_sit(request: HttpRequest, table_id: int, body: SitRequest | None = None) -> Seating:
    """Take a free seat (the first, or ``position`` 0–3), as the socket's ``sit``. The
    body is optional: none (or ``{}``) takes the first free seat."""
    user = grant_of(request).user
    position = body.position if body is not None else None
    seat = game_services.sit(user, _table_id(table_id), position)
    game_services.heard_from_program(user)
    return Seating(table=seat.table_id, seated=True, position=seat.position)


@router.post(
    "/tables/{table_id}/leave",
    operation_id="table_leave",
    response={200: LeaveAnswer},
    auth=Token("play"),
    openapi_extra=refusals(
        *SCOPED, "malformed", "not_found", "not_seated", "assigned_seats", "table_busy"
    ),
)
def table_leave(request: HttpRequest, table_id: int) -> LeaveAnswer:
    """Leave your seat at this table; during a round this is a leave (docs/rules.md#timing)."""
    user = grant_of(request).user
    if not Seat.objects.filter(user=user, table_id=_table_id(table_id)).exists():
        raise SeatError(_("You are not seated at this table."), code="not_seated")
    game_services.stand(user)
    return LeaveAnswer(table=table_id, left=True)


def _table_id(value: int) -> int:
    if not 0 < value < 2**63:
        raise ApiError(404, "not_found", _("This table or round does not exist."))
    return value
