"""Reads of tables and rounds shared by services, consumers, views and tasks.

What a client may see is decided here: a player's own cards are in their snapshot and
nobody else's until the showdown reveals them chi by chi. At a duplicate table the
showdown's cards go only to those who can no longer be dealt that board
(``board_audience``); everyone else gets the ``withheld_*`` forms.

The package mirrors ``games.services``. Queries by concern: ``rounds`` (the round being
played, the latest, its ledger transfers), ``tables`` (the lobby's tables), ``private``
(who hosts a private table, who may come in), ``presence`` (who has a socket open) and
``duplicate`` (boards: who held which cards, the scores, who may see a board's cards).
``payloads``: every message the server sends to browsers, in the order docs/protocol.md
lists them. ``engine``: the bridge from stored rounds to the rules engine (the players as
the engine takes them, the settlement as things stand, the fairness check). ``history``:
a player's hand history. Selectors never import ``games.services`` (services import them).
"""

from games.selectors.duplicate import board_audience, board_knowers, hands_withheld
from games.selectors.engine import (
    RoundResult,
    is_foul_arrangement,
    player_inputs,
    round_players,
    settle_round_result,
    verify_round,
)
from games.selectors.payloads import (
    later_reveals,
    lobby_page,
    lobby_row,
    open_rounds,
    open_tournament_seats,
    result_breakdown,
    reveal_payload,
    round_view,
    scoop_lines,
    seat_view,
    snapshot_and_later,
    summary_payload,
    table_snapshot,
    void_payload,
    withheld_reveal,
    withheld_summary,
    withheld_void,
)
from games.selectors.presence import online_users
from games.selectors.private import (
    acting_host_id,
    active_holds,
    enters_as_staff,
    entry_refusal,
    held_seats,
    is_acting_host,
    is_staff,
    may_enter,
    valid_invites,
)
from games.selectors.rounds import (
    BETWEEN_KINDS,
    FINISHED_STATES,
    LIVE_STATES,
    active_round,
    between_view,
    latest_round,
    round_transfer_ids,
)
from games.selectors.tables import joinable_tables, open_tables, table_state

__all__ = [
    "BETWEEN_KINDS",
    "FINISHED_STATES",
    "LIVE_STATES",
    "RoundResult",
    "acting_host_id",
    "active_holds",
    "active_round",
    "between_view",
    "board_audience",
    "board_knowers",
    "enters_as_staff",
    "entry_refusal",
    "hands_withheld",
    "held_seats",
    "is_acting_host",
    "is_foul_arrangement",
    "is_staff",
    "joinable_tables",
    "later_reveals",
    "latest_round",
    "lobby_page",
    "lobby_row",
    "may_enter",
    "online_users",
    "open_rounds",
    "open_tables",
    "open_tournament_seats",
    "player_inputs",
    "result_breakdown",
    "reveal_payload",
    "round_players",
    "round_transfer_ids",
    "round_view",
    "scoop_lines",
    "seat_view",
    "settle_round_result",
    "snapshot_and_later",
    "summary_payload",
    "table_snapshot",
    "table_state",
    "valid_invites",
    "verify_round",
    "void_payload",
    "withheld_reveal",
    "withheld_summary",
    "withheld_void",
]
