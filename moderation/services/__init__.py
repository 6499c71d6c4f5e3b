"""Every write of the moderation app: one transaction each, with its staff audit row.

Remedies never edit history: a wrong result is corrected by new ledger transfers
(`ledger.services.compensate`, `ledger.services.resettle_round`) and every staff action
is a new, append-only `StaffAction` row.

One module per concern, all on `base` (the audit row, the text policy, the case lock, the
separation of duties, the recorded refusals):

| module | what it writes |
|---|---|
| `cases` | a player's dispute or report, a reported chat message, notices read |
| `review` | a moderator claims and resolves a case; what staff look at, recorded |
| `remedies` | compensation and its limits (four eyes), re-settlement, voiding a round |
| `sanctions` | suspension and mute, and lifting them |
| `tables` | closing a table |
| `addresses` | the addresses behind the collusion signals |
| `prizes` | a tournament's held prizes: the entrants told, released or returned |

Callers may keep `from moderation import services` and `services.claim(...)`: the names are
re-exported here.
"""

from __future__ import annotations

from moderation.errors import Forbidden, ModerationError, NotFound
from moderation.services.addresses import record_seat_ips, record_user_ip
from moderation.services.base import MAX_TEXT, RECORDED_REFUSALS, concerns, record_refusal
from moderation.services.cases import (
    dispute_window,
    file_dispute,
    report_chat,
    report_player,
)
from moderation.services.prizes import DECISIONS, decide_prizes, notify_prize_hold
from moderation.services.remedies import (
    Limits,
    approve_compensation,
    compensate,
    correct_deltas,
    limits_of,
    paid_alone_since,
    reject_compensation,
    resettle,
    set_compensation_limit,
    solo_allowance,
    staff_void_round,
)
from moderation.services.review import (
    claim,
    open_board,
    record_private_table_visit,
    record_replay_view,
    resolve,
)
from moderation.services.sanctions import lift_suspension, mute, suspend, unmute
from moderation.services.tables import staff_close_table

__all__ = [
    "DECISIONS",
    "MAX_TEXT",
    "RECORDED_REFUSALS",
    "Forbidden",
    "Limits",
    "ModerationError",
    "NotFound",
    "approve_compensation",
    "claim",
    "compensate",
    "concerns",
    "correct_deltas",
    "decide_prizes",
    "dispute_window",
    "file_dispute",
    "lift_suspension",
    "limits_of",
    "mute",
    "notify_prize_hold",
    "open_board",
    "paid_alone_since",
    "record_private_table_visit",
    "record_refusal",
    "record_replay_view",
    "record_seat_ips",
    "record_user_ip",
    "reject_compensation",
    "report_chat",
    "report_player",
    "resettle",
    "resolve",
    "set_compensation_limit",
    "solo_allowance",
    "staff_close_table",
    "staff_void_round",
    "suspend",
    "unmute",
]
