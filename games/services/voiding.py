"""Voiding a round: every stake goes back to its player, nobody wins or loses.

A round is voided by a staff member (an audited moderation action), by the showdown
when its settlement fails for a reason that retrying cannot fix, or by a tournament's
watchdog ending a tournament that made no progress (its rounds in play go first). The
holds are released through the ledger in the same transaction as the round's change of
state.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.errors import RoundError
from games.models import Round, RoundState, Table
from games.selectors.duplicate import board_audience
from games.selectors.payloads import void_payload, withheld_void
from games.selectors.rounds import round_transfer_ids
from games.services import duplicate
from games.services.common import clock_reveals, lock_round, log_many
from games.services.countdown import round_over
from games.stakes import for_table

logger = logging.getLogger(__name__)


class VoidReason:
    """Why a round was voided (stored in the round log, sent to the table)."""

    STAFF = "staff"
    SETTLEMENT_FAILED = "settlement_failed"
    TOURNAMENT_STALLED = "tournament_stalled"
    """The tournament made no progress for too long and the server ended it."""


@transaction.atomic
def void_round(round_id: Any, *, reason: str, by: User | None = None, note: str = "") -> Round:
    """Void a round still being played and return every hold. Refused once it is over."""
    table, round_ = lock_round(round_id)
    if round_.is_finished:
        raise RoundError(
            _("This round is already over: it can no longer be voided."), code="round_over"
        )
    void(table, round_, reason=reason, by=by, note=note)
    return round_


def void(
    table: Table, round_: Round, *, reason: str, by: User | None = None, note: str = ""
) -> None:
    """Void a live round whose table and round rows the caller has locked."""
    closure = for_table(table).void(table, round_)
    now = timezone.now()
    shown_on_the_clock = clock_reveals(round_, now)  # before the state moves on
    round_.revealed = round_.chi_shown(now)
    round_.state = RoundState.CANCELLED
    round_.phase += 1  # every pending timer of the round is now stale
    round_.deadline = None
    round_.settled_at = now
    round_.save(update_fields=["state", "phase", "revealed", "deadline", "settled_at"])
    entry = {
        "reason": reason,
        "note": note,
        "by": by.pk if by is not None else None,
        "transfers": round_transfer_ids(round_.pk),
        "closure": closure,
        "server_seed": round_.server_seed,
    }
    log_many(round_, [*shown_on_the_clock, ("voided", entry, by)])
    duplicate.round_finished(round_)
    logger.warning("round voided (%s)", reason)
    round_over(
        table,
        {"type": "voided", **void_payload(round_, reason)},
        # A duplicate board still secret: its balances only to who may see its cards.
        audience=board_audience(round_),  # after round_finished: the board may be out now
        withheld=withheld_void,
    )
