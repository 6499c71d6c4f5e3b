"""Tables: a moderator closes one."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.models import User
from games import services as games
from games.models import Table
from games.selectors import active_round
from moderation.errors import NotFound
from moderation.models import ActionKind
from moderation.services.base import (
    as_id,
    audit,
    refusals_recorded,
    require_moderator,
    require_reason,
)


@refusals_recorded(ActionKind.CLOSE_TABLE, "games.table")
@transaction.atomic
def staff_close_table(moderator: User, table_id: Any, *, reason: str) -> Table:
    """Close a table (it leaves the lobby); a round in progress plays on, nothing is voided."""
    require_moderator(moderator)
    reason = require_reason(reason)
    table = Table.objects.filter(pk=as_id(table_id)).first()
    if table is None:
        raise NotFound()
    before = {"open": table.is_open, "seated": table.seat_set.count()}
    closed = games.close_table(table.pk) or table  # None only for the sweep's conditional close
    audit(
        moderator,
        ActionKind.CLOSE_TABLE,
        closed,
        reason=reason,
        before=before,
        after={"open": closed.is_open, "round_running": active_round(closed) is not None},
    )
    return closed
