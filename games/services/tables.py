"""Opening tables."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import events
from games.errors import GameError
from games.models import (
    Preset,
    Table,
)
from games.rules import Rules, RulesConfigError
from games.selectors import (
    lobby_row,
)
from games.services.seats import sit

MIN_BALANCE_STAKES = 20


def create_table(
    host: User,
    *,
    name: str,
    preset: str = Preset.PORTAL,
    stake: int,
    seats: int = 4,
    rules_overrides: dict[str, Any] | None = None,
    min_balance: int | None = None,
    allow_bots: bool = False,
    bot_wait_seconds: int = 5,
) -> Table:
    """Open a table; house rules are validated against RULES.md section 9."""
    name = name.strip()
    if not name or len(name) > 60:
        raise GameError(_("A table needs a name of 1 to 60 characters."), code="bad_name")
    if preset not in Preset.values:
        raise GameError(_("Unknown rules preset."), code="bad_preset")
    if not isinstance(stake, int) or not 1 <= stake <= 1_000_000:
        raise GameError(_("The stake must be between 1 and 1,000,000 xu."), code="bad_stake")
    if seats not in (2, 3, 4):
        raise GameError(_("A table has 2 to 4 seats."), code="bad_seats")
    overrides = rules_overrides or {}
    try:
        Rules.preset(preset).with_overrides(overrides)
    except RulesConfigError as exc:
        raise GameError(
            _("These house rules are not allowed: %(detail)s"), code="bad_rules", detail=str(exc)
        ) from exc
    if not isinstance(bot_wait_seconds, int) or not 1 <= bot_wait_seconds <= 60:
        raise GameError(_("Bots wait 1 to 60 seconds before they join."), code="bad_bot_wait")
    minimum = MIN_BALANCE_STAKES * stake if min_balance is None else min_balance
    if minimum < 0:
        raise GameError(_("The minimum balance cannot be negative."), code="bad_min_balance")
    table = Table.objects.create(
        name=name,
        host=host,
        preset=preset,
        rules_overrides=overrides,
        stake=stake,
        seats=seats,
        min_balance=minimum,
        allow_bots=allow_bots,
        bot_wait_seconds=bot_wait_seconds,
    )
    events.to_lobby({"type": "table", "table": lobby_row(table)})
    return table


@transaction.atomic
def open_table(host: User, *, sit_down: bool = True, **options: Any) -> Table:
    """The create-table form: open a table and, if asked, seat its creator at once.

    One transaction: when the creator cannot sit (seated elsewhere, balance below the
    table's minimum…) no table is left behind and the form shows why.
    """
    table = create_table(host, **options)
    if sit_down:
        sit(host, table.pk)
    return table
