"""The showdown: chi by chi on the clock, then settlement through the ledger.

One step begins it (the submission or leave that leaves nobody arranging, or the timer at
the arranging deadline): the hands not sent are played, the first chi (or the instant wins)
is shown, and the later chi go out with it, each held by the sockets until its time
(docs/protocol.md, "Reveals"). One timer, at the round's deadline, settles it."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from accounts.models import User
from core.logcontext import log_context
from games import events
from games.errors import NotFound
from games.models import AutoArranged, PlayerStatus, Round, RoundPlayer, RoundState, Table
from games.rules import format_cards, parse_cards
from games.rules.arrange import suggest
from games.selectors.duplicate import board_audience
from games.selectors.engine import (
    RoundResult,
    is_foul_arrangement,
    round_players,
    settle_round_result,
)
from games.selectors.payloads import (
    later_reveals,
    reveal_payload,
    summary_payload,
    withheld_reveal,
    withheld_summary,
)
from games.selectors.rounds import round_transfer_ids
from games.services import duplicate
from games.services.common import (
    bump,
    clock_reveals,
    lock_round,
    log_many,
    table_event,
)
from games.services.countdown import round_over
from games.services.timers import queue_advance
from games.services.voiding import VoidReason, void
from games.services.writes import Writes, one_statement
from games.signals import round_rating
from games.stakes import for_table

logger = logging.getLogger(__name__)


def begin_showdown(
    table: Table,
    round_: Round,
    players: list[RoundPlayer] | None = None,
    *,
    writes: Writes | None = None,
) -> None:
    """End arranging: at the deadline (the timer), or in the step whose submission or leave
    left nobody still arranging, with that step's ``players`` and ``writes``."""
    # Hands not submitted in time are played for their owners first (docs/rules.md#timing).
    # One read of the players serves both the hands played here and the settlement.
    if players is None:
        players = round_players(round_)
    with one_statement(writes) as writes:  # the hands played, the round, its log, the version
        played = play_for_the_absent(round_, players, writes=writes)
        result = settle_round_result(round_, players=players)
        round_.state = RoundState.SHOWDOWN
        round_.revealed = 0 if result.has_instant else 1
        round_.phase += 1
        round_.showdown_at = timezone.now()
        round_.deadline = round_.reveal_time(4)  # after the last chi's time: the settlement
        writes.update([round_], ["state", "revealed", "phase", "showdown_at", "deadline"])
        missing = [
            p.position
            for p in result.players
            if p.status == PlayerStatus.PLAYING and p.submitted_at is None and not p.arrangement
        ]
        auto = {str(p.position): p.auto_arranged for p in result.players if p.auto_arranged}
        showdown = ("showdown", {"unarranged": missing, "auto_arranged": auto}, None)
        log_first = [*auto_arranged_entries(played), showdown]
        reveal(table, round_, result, log_first=log_first, writes=writes)
    for p in played:  # each owner sees the hand played for them (others see it chi by chi)
        events.to_player(
            table.pk,
            p.user_id,
            {
                "type": "submission",
                "table": table.pk,
                "round": round_.pk,
                "version": table.version,
                "chi": p.arrangement,
                "foul": False,
                "auto_arranged": p.auto_arranged,
            },
        )


def play_for_the_absent(
    round_: Round, players: Sequence[RoundPlayer], *, writes: Writes
) -> list[RoundPlayer]:
    """At the deadline, arrange every hand not submitted in time, as the table's rules say.

    ``auto``: the last complete draft if it is not binh lủng, else the engine's best
    arrangement; the hand is marked with which (``auto_arranged_entries`` logs it).
    ``foul``: nothing (binh lủng). Returns the players arranged here.
    """
    rules = round_.rules
    if rules.on_timeout != "auto":
        return []
    played = []
    for p in players:
        if p.status != PlayerStatus.PLAYING or p.submitted_at is not None:
            continue
        if p.draft and not is_foul_arrangement(rules, p.draft):
            p.arrangement, p.auto_arranged = p.draft, AutoArranged.DRAFT
        else:
            best = suggest(parse_cards(p.cards), rules, n=0, opponents=max(1, len(players) - 1))
            p.arrangement = [format_cards(part) for part in best[0].chi]
            p.auto_arranged = AutoArranged.ENGINE
        played.append(p)
    writes.update(played, ["arrangement", "auto_arranged"])
    return played


def auto_arranged_entries(played: Sequence[RoundPlayer]) -> list[tuple[str, dict[str, Any], None]]:
    """The round log's entries for the hands ``play_for_the_absent`` arranged."""
    return [
        (
            "auto_arranged",
            {"position": p.position, "by": p.auto_arranged, "chi": p.arrangement},
            None,
        )
        for p in played
    ]


def reveal(
    table: Table,
    round_: Round,
    result: RoundResult,
    *,
    log_first: Sequence[tuple[str, dict[str, Any], User | None]] = (),
    writes: Writes,
) -> None:
    """Show the showdown's first step and send its later chi ahead (``later_reveals``);
    ``log_first``: round log entries that precede the reveal's (one INSERT for them all);
    ``writes``: the step's last writes, the log and version's too."""
    payload = reveal_payload(round_, result, round_.revealed)
    log_many(round_, [*log_first, ("reveal", {"revealed": round_.revealed}, None)], writes=writes)
    bump(table, writes=writes)
    # A duplicate board's cards go only to those who cannot be dealt it any more.
    audience = board_audience(round_)
    table_event(
        table,
        {"type": "reveal", **payload},
        audience=audience,
        withheld=withheld_reveal,
        later=later_reveals(round_, result, round_.revealed),
        later_withheld=withheld_reveal,
    )
    queue_advance(round_)


class _SettlementFailed(Exception):
    """A settlement failed for a reason a retry would meet again (advance_round voids)."""


def advance_round(
    round_id: int, expected_state: str, expected_phase: int, *, skip_locked: bool = False
) -> Round | None:
    """The timer step: end arranging (the showdown begins), or settle. Idempotent.

    A task that finds the round in another state or phase is stale (a duplicate, a retry,
    or the showdown began early) and does nothing; one that fires early reschedules.
    With ``skip_locked`` (the sweeper) a table busy elsewhere is left for later.

    A settlement that fails for a reason a retry would meet again (a ledger refusal, a bug,
    bad data) would fail the same way on every retry, leaving the stakes held for ever: its
    transaction is rolled back whole (nothing of it stays: no savepoint is needed, and
    every settlement saves its two statements), and a second one voids the round and
    returns every stake; the error is logged for the staff. A transient database fault (a
    lost connection, a lock not granted) propagates, and the timer task retries it.
    """
    try:
        return _advance(round_id, expected_state, expected_phase, skip_locked)
    except _SettlementFailed:
        return _void_unsettled(round_id, expected_state, expected_phase, skip_locked)


def _lock_as_expected(
    round_id: int, expected_state: str, expected_phase: int, skip_locked: bool
) -> tuple[Table, Round] | None:
    """The table and round locked, or None: no such round, or a timer that is stale (the
    round is in another state or phase than the timer was set for)."""
    try:
        table, round_ = lock_round(round_id, skip_locked=skip_locked)
    except NotFound:
        return None
    if round_.state != expected_state or round_.phase != expected_phase:
        return None
    return table, round_


@transaction.atomic
def _advance(
    round_id: int, expected_state: str, expected_phase: int, skip_locked: bool
) -> Round | None:
    locked = _lock_as_expected(round_id, expected_state, expected_phase, skip_locked)
    if locked is None:
        return None
    table, round_ = locked
    if round_.deadline is not None and timezone.now() < round_.deadline:
        queue_advance(round_)
        return None
    with log_context(table=table.pk, round=round_.pk):
        if round_.state == RoundState.ARRANGING:
            begin_showdown(table, round_)
        elif round_.state == RoundState.SHOWDOWN:
            try:
                settle(table, round_)  # every chi has had its time (begin_showdown)
            except (OperationalError, InterfaceError):
                raise
            except Exception as exc:
                logger.exception("settlement failed: the round is voided and every stake returned")
                raise _SettlementFailed() from exc
    return round_


@transaction.atomic
def _void_unsettled(
    round_id: int, expected_state: str, expected_phase: int, skip_locked: bool
) -> Round | None:
    """Void the round whose settlement failed (its transaction rolled back), unless another
    step moved it on in between."""
    locked = _lock_as_expected(round_id, expected_state, expected_phase, skip_locked)
    if locked is None:
        return None
    table, round_ = locked
    with log_context(table=table.pk, round=round_.pk):
        void(table, round_, reason=VoidReason.SETTLEMENT_FAILED)
    return round_


def settle(table: Table, round_: Round) -> None:
    """Settle with the rules snapshot of the deal and pay what the table is played for
    (xu through the ledger, a tournament's chips, or nothing: games.stakes), exactly once."""
    result = settle_round_result(round_, with_users=True)
    players = result.players
    shown_on_the_clock = clock_reveals(round_, timezone.now(), upto=3)
    for p in players:
        outcome = result.settlement.player(str(p.position))
        p.units, p.xu = outcome.units, outcome.xu
    deltas = {p.user_id: p.xu or 0 for p in players}
    fee = for_table(table).settle(table, round_, players, deltas)
    round_.state = RoundState.SETTLED
    round_.phase += 1
    round_.revealed = 3
    round_.deadline = None
    round_.settled_at = timezone.now()
    round_.settlement = result.settlement.to_json()
    for _receiver, response in round_rating.send(
        sender=Round, table=table, round=round_, players=players
    ):
        if response is not None:
            round_.ratings = response
    # The results, the round, its log entry and the table's version: one statement.
    with one_statement() as writes:
        writes.update(players, ["units", "xu"])
        fields = ["state", "phase", "revealed", "deadline", "settled_at", "settlement", "ratings"]
        writes.update([round_], fields)
        entry = {
            "deltas": {str(k): v for k, v in deltas.items()},
            "transfers": round_transfer_ids(round_.pk),
            "fee": fee,
            "server_seed": round_.server_seed,
        }
        log_many(round_, [*shown_on_the_clock, ("settled", entry, None)], writes=writes)
        duplicate.round_finished(round_)
        logger.info("settled")
        round_over(
            table,
            {"type": "settled", **summary_payload(round_, players)},
            audience=board_audience(round_),  # after round_finished: the board may be out now
            withheld=withheld_summary,
            writes=writes,
        )
