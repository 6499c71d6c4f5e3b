"""Every change to tables and rounds goes through here.

One serialized command stream per table: every service locks the table row first (then
the round row), so seat changes, submissions, leaves and timer steps of one table never
interleave. Holds and settlements go through ``ledger.services`` inside the same
transaction; events to browsers leave after the commit (``games.events``); timer tasks are
enqueued on commit and carry the round ``phase`` they expect.

The package is split along the table's life: ``common`` (the lock, version, events and
round log every step shares), ``tables``, ``seats``, ``presence``, ``countdown``,
``private`` (invite links, held seats, the host's removals), ``rounds`` (deal and
arranging), ``showdown`` (reveals and settlement), ``voiding`` (a round cancelled, every
stake returned), ``timers`` (queued when soon due, planned otherwise) and ``sweeper``.
"""

from games.services.between import between_rounds
from games.services.common import lock_table, new_client_seed, new_server_seed
from games.services.countdown import SUMMARY_SECONDS
from games.services.presence import (
    AWAY_AFTER,
    CONNECTION_TTL,
    connected,
    disconnected,
    expire_connections,
    heard_from,
    heard_from_program,
    renew_connections,
)
from games.services.rounds import (
    save_draft,
    start_round,
    start_round_when_due,
    submit_arrangement,
)
from games.services.seats import (
    assign_seat,
    set_client_seed,
    set_managed_stake,
    sit,
    stand,
    unassign_seat,
)
from games.services.showdown import advance_round
from games.services.sweeper import sweep_due_rounds
from games.services.tables import (
    MIN_BALANCE_STAKES,
    close_empty_tables,
    close_table,
    create_table,
    open_table,
)
from games.services.timers import plan_timers
from games.services.voiding import VoidReason, void_round

__all__ = [
    "AWAY_AFTER",
    "CONNECTION_TTL",
    "MIN_BALANCE_STAKES",
    "SUMMARY_SECONDS",
    "VoidReason",
    "advance_round",
    "assign_seat",
    "between_rounds",
    "close_empty_tables",
    "close_table",
    "connected",
    "create_table",
    "disconnected",
    "expire_connections",
    "heard_from",
    "heard_from_program",
    "lock_table",
    "new_client_seed",
    "new_server_seed",
    "open_table",
    "plan_timers",
    "renew_connections",
    "save_draft",
    "set_client_seed",
    "set_managed_stake",
    "sit",
    "stand",
    "start_round",
    "start_round_when_due",
    "submit_arrangement",
    "sweep_due_rounds",
    "unassign_seat",
    "void_round",
]
