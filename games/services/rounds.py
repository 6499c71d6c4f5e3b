"""Dealing a round and accepting arrangements."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import SeatRefused
from accounts.models import User
from accounts.services import ensure_can_sit
from core.logcontext import log_context
from games import events
from games.errors import NotFound, RoundError, StaleVersion
from games.models import (
    DuplicateBoard,
    PlayerStatus,
    Round,
    RoundPlayer,
    RoundState,
    Seat,
    Table,
)
from games.rules import ArrangementError, format_cards, parse_cards
from games.rules.fair import commitment, deal_from_seeds
from games.rules.presets import hold_amount
from games.rules.scoring import validate_arrangement
from games.selectors import payloads
from games.selectors.engine import is_foul_arrangement, round_players
from games.selectors.private import acting_host_id
from games.selectors.rounds import latest_round, rounds_dealt_today
from games.selectors.tables import seats_with_users
from games.services import common, duplicate
from games.services.common import (
    bump,
    lock_round,
    lock_table,
    log,
    log_many,
    table_event,
)
from games.services.countdown import late_turn, set_start
from games.services.presence import away_players
from games.services.private import ensure_hosted
from games.services.seats import remove_seat
from games.services.showdown import begin_showdown
from games.services.timers import queue_advance, queue_start
from games.services.writes import one_statement
from games.signals import round_dealt, send_on_commit
from games.stakes import for_table

logger = logging.getLogger(__name__)

ARRANGEMENT_MESSAGES = {
    "chi_count": _("An arrangement has exactly three chi: 5, 5 and 3 cards."),
    "chi_size": _("Chi 1 and chi 2 take 5 cards each, chi 3 takes 3."),
    "card_unknown": _("That is not a card."),
    "card_duplicate": _("A card appears twice in your arrangement."),
    "card_not_dealt": _("Your arrangement uses a card you were not dealt."),
}


@transaction.atomic
def start_round(user: User, table_id: int) -> Round:
    """The host's Start button: the creator's, or the host's now (docs/social.md)."""
    table = lock_table(table_id)
    ensure_hosted(table)  # a tournament's table deals by its own clock
    if user.pk not in (table.host_id, acting_host_id(table)):
        raise RoundError(_("Only the host can start the round."), code="not_host")
    if not table.is_open:
        raise RoundError(_("This table is closed."), code="table_closed")
    latest = latest_round(table)
    if is_live(latest):
        raise RoundError(_("A round is already being played."), code="round_running")
    if table.seat_set.count() < 2:
        raise RoundError(_("At least two players must be seated."), code="too_few_players")
    round_ = deal(table, latest)
    if round_ is None and table.duplicate_schedule_id is not None and table.seat_set.count() >= 2:
        raise RoundError(
            _("No board of this duplicate schedule is left that these players have not played."),
            code="no_board_left",
        )
    if round_ is None:
        raise RoundError(
            _("Not enough players are present and able to pay."), code="too_few_players"
        )
    return round_


@transaction.atomic
def start_round_when_due(
    table_id: int, expected_start_at: str | None = None, *, skip_locked: bool = False
) -> Round | None:
    """The automatic start: deal if the countdown this timer belongs to has run out.

    With ``skip_locked`` (the sweeper) a table busy elsewhere is left for later."""
    try:
        table = lock_table(table_id, skip_locked=skip_locked)
    except NotFound:
        return None
    if table.start_at is None or not table.is_open:
        return None
    if expected_start_at is not None and table.start_at.isoformat() != expected_start_at:
        return None  # the countdown restarted or was cancelled since this timer was set
    now = timezone.now()
    if now < table.start_at:
        queue_start(table.pk, table.start_at)  # fired early: try again on time
        return None
    latest = latest_round(table)
    if is_live(latest):
        return None
    later = late_turn(table.start_at, now)
    if later is not None:  # late, in a turn the site has already dealt in: wait for room
        set_start(table, later)
        return None
    return deal(table, latest)


def is_live(latest: Round | None) -> bool:
    """Whether a round is being played at the table whose latest round is ``latest``.

    At most one round of a table is live, and it is the latest: a round is dealt only
    when none is live, under the table lock, and a finished round never comes back. So one
    read of the latest round answers this and gives the next round's number.
    """
    return latest is not None and not latest.is_finished


def deal(table: Table, latest: Round | None, *, seats: list[Seat] | None = None) -> Round | None:
    """Stand up who cannot play, then deal, hold the stakes and start the arranging clock.

    ``latest``: the table's latest round, finished; ``seats``: its seats with their users
    (``seats_with_users``), if the caller has them (both read under the table's lock)."""
    now = timezone.now()
    table.start_at = None  # saved by the bump below, with the version
    playing: list[Seat] = []
    if seats is None:
        seats = seats_with_users(table)
    stakes = for_table(table)
    balances = stakes.balances(table, [seat.user_id for seat in seats])
    away = away_players(table.pk, seats, now)
    for seat in seats:
        reason = cannot_play(table, seat, seat.user_id in away, balances[seat.user_id])
        if reason is None:
            playing.append(seat)
        else:
            remove_seat(table, seat, reason=reason)
    if len(playing) < 2:
        bump(table, "start_at")
        table_event(table, {"type": "countdown", "start_at": None}, lobby=True)
        return None

    board = None
    if table.duplicate_schedule_id is not None:
        board = duplicate.board_for_deal(table, [seat.user_id for seat in playing])
        if board is None:  # every board left was dealt to someone here, or it is closed
            bump(table, "start_at")
            table_event(table, {"type": "countdown", "start_at": None}, lobby=True)
            return None

    rules = table.rules
    if board is None:
        seed = server_seed = common.new_server_seed()  # via the module: tests seed it
        client_seeds = [seat.client_seed for seat in playing]
    else:
        # The board's committed seed and public client seed: the k-th player in seat order
        # holds deck[13k : 13k + 13] of the board, as at every table that plays it. The
        # round keeps no copy of the secret: it is revealed with the board.
        seed, server_seed, client_seeds = board.seed, "", [board.client_seed]
    hands = deal_from_seeds(seed, client_seeds, len(playing))
    table.next_board = None
    table.between = None  # who was ready for this deal: past (games.services.between)
    # The players, the round log and the new version go in one statement (one_statement).
    with one_statement() as writes:
        version = bump(table, "start_at", "next_board", "between", writes=writes)
        round_ = Round.objects.create(
            table=table,
            number=(latest.number if latest is not None else 0) + 1,
            state=RoundState.ARRANGING,
            phase=1,
            dealt_version=version,
            rules_json=rules.to_dict(),
            stake=table.stake,
            server_seed=server_seed,
            server_seed_hash=commitment(seed),
            client_seeds=client_seeds,
            board=board,
            deadline=now + timedelta(seconds=rules.arrange_seconds),
        )
        with log_context(table=table.pk, round=round_.pk):
            n = len(playing)
            players: list[RoundPlayer] = []
            for seat, hand in zip(playing, hands, strict=True):
                held = hold_amount(rules, table.stake, balances[seat.user_id], n)
                players.append(
                    RoundPlayer(
                        round=round_,
                        user=seat.user,
                        position=seat.position,
                        cards=format_cards(hand),
                        hold=held,
                        cap=held // (n - 1),
                    )
                )
            stakes.hold(table, round_, [(p.user, p.hold) for p in players])
            writes.insert(players)
            deal = {
                "commitment": round_.server_seed_hash,
                "client_seeds": client_seeds,
                **duplicate_fields(board),
                "players": [
                    {"user": p.user_id, "position": p.position, "hold": p.hold, "cap": p.cap}
                    for p in players
                ],
            }
            log_many(
                round_,
                [("deal", deal, None)]
                + [("cards", {"position": p.position, "cards": p.cards}, p.user) for p in players],
                first=True,
                writes=writes,
            )
            logger.info("dealt to %d players", n)
    table_event(
        table,
        {
            "type": "round_started",
            "round": round_.pk,
            "number": round_.number,
            "commitment": round_.server_seed_hash,
            "client_seeds": client_seeds,
            **duplicate_fields(board),
            "deadline": round_.deadline.isoformat() if round_.deadline else None,
            "players": [
                {"position": p.position, "user": p.user_id, "hold": p.hold} for p in players
            ],
        },
        lobby=True,
        taken=len(playing),
        state="playing",
    )
    for player in players:
        events.to_player(
            table.pk,
            player.user_id,
            {
                "type": "cards",
                "table": table.pk,
                "round": round_.pk,
                "version": table.version,
                "cards": player.cards,
            },
        )
        if not player.user.is_bot:  # the site's bots have no stream (bots.tasks plays them)
            events.to_user(player.user_id, payloads.round_dealt(round_, player))
    queue_advance(round_)
    send_on_commit(
        round_dealt,
        table_id=table.pk,
        round_id=round_.pk,
        bot_ids=[p.user_id for p in players if p.user.is_bot],
    )
    return round_


def duplicate_fields(board: DuplicateBoard | None) -> dict[str, Any]:
    """What the deal's log entry and event say of the board it dealt (nothing if none)."""
    if board is None:
        return {}
    return {"board": {"schedule": board.schedule_id, "number": board.number}}


def cannot_play(table: Table, seat: Seat, away: bool, balance: int) -> str | None:
    """Why this seated player is stood up at the deal, or None.

    At a managed table (a tournament's) the seat is the owner's to take away: a player who
    is away or suspended is dealt in and played for (docs/rules.md#timing); only one who has
    nothing left to put at risk is stood up."""
    if not table.is_managed:
        if away:
            return "away"
        if (
            seat.user.is_api_bot
            and rounds_dealt_today(seat.user_id) >= settings.API_BOT_ROUNDS_PER_DAY
        ):
            return "bot_round_cap"
        try:
            ensure_can_sit(seat.user)
        except SeatRefused:
            return "suspended"
    if balance < max(table.min_balance, 1 if table.is_managed else 0):
        return "balance_too_low"
    return None


def _arranging_player(
    user: User,
    round_id: Any,
    seen_version: int | None,
    table_id: int | None,
    *,
    on_time: bool = True,
) -> tuple[Table, Round, list[RoundPlayer], RoundPlayer]:
    """Lock the round and return the caller's seat in it, if they may still arrange.

    ``on_time=False`` leaves the phase and deadline to the caller (a resend of what
    already stands is answered even after the showdown began)."""
    table, round_ = lock_round(round_id, table_id)
    everyone = round_players(round_)
    player = next((p for p in everyone if p.user_id == user.pk), None)
    if player is None:
        raise NotFound(_("You are not playing in this round."), code="not_in_round")
    if seen_version is not None and seen_version < round_.dealt_version:
        raise StaleVersion()
    if player.status == PlayerStatus.LEFT:
        raise RoundError(_("You have left this round."), code="left")
    if on_time:
        _ensure_arranging(round_)
    return table, round_, everyone, player


def _ensure_arranging(round_: Round) -> None:
    if round_.state != RoundState.ARRANGING:
        raise RoundError(_("Arranging is over for this round."), code="not_arranging")
    if round_.deadline is not None and timezone.now() >= round_.deadline:
        raise RoundError(_("Time is up: the arrangement was not accepted."), code="too_late")


def _validated(player: RoundPlayer, chi: Sequence[Sequence[str]]) -> list[list[str]]:
    """The three chi as stored, or a ``RoundError`` naming what is wrong (a forged card…)."""
    try:
        arranged = validate_arrangement(parse_cards(player.cards), chi)
    except ArrangementError as exc:
        raise RoundError(ARRANGEMENT_MESSAGES.get(exc.code, exc.args[0]), code=exc.code) from exc
    return [format_cards(part) for part in arranged]


@transaction.atomic
def submit_arrangement(
    user: User,
    round_id: Any,
    chi: Sequence[Sequence[str]],
    *,
    seen_version: int | None = None,
    table_id: int | None = None,
) -> RoundPlayer:
    """Accept (or replace) a player's arrangement until the deadline or the showdown.

    A foul arrangement is accepted (it loses); a forged or miscounted one is refused. The
    arrangement already accepted, sent again, changes nothing and is accepted again.
    ``seen_version`` is the table version the client last saw: a client that has not yet
    seen this round's deal (a stale tab) is refused. ``table_id`` is the table the
    request came from, when known.
    """
    table, round_, everyone, player = _arranging_player(
        user, round_id, seen_version, table_id, on_time=False
    )
    arrangement = _validated(player, chi)
    if player.arrangement == arrangement:
        # A resend (the reply to the first was lost, or it failed after the commit): the
        # arrangement already stands, even if the showdown has begun since. One
        # submission: no log entry, no event, no new version; the same ok.
        return player
    _ensure_arranging(round_)
    player.arrangement = arrangement
    player.draft = player.arrangement  # the layout a reconnecting page restores
    player.submitted_at = timezone.now()
    foul = is_foul_arrangement(round_.rules, player.arrangement)
    # The arrangement, its log entry and the version; with the last one, the showdown's too.
    with one_statement() as writes:
        writes.update([player], ["arrangement", "draft", "submitted_at"])
        log(
            round_,
            "submit",
            {"position": player.position, "chi": player.arrangement, "foul": foul},
            user,
            writes=writes,
        )
        bump(table, writes=writes)
        table_event(table, {"type": "submitted", "round": round_.pk, "position": player.position})
        events.to_player(
            table.pk,
            user.pk,
            {
                "type": "submission",
                "table": table.pk,
                "round": round_.pk,
                "version": table.version,
                "chi": player.arrangement,
                "foul": foul,
            },
        )
        if all(p.submitted_at is not None for p in everyone if p.status == PlayerStatus.PLAYING):
            # Everyone still playing has submitted: the showdown begins in this step, under
            # its lock and in its statement (its events follow the submission's).
            begin_showdown(table, round_, everyone, writes=writes)
    return player


@transaction.atomic
def save_draft(
    user: User,
    round_id: Any,
    chi: Sequence[Sequence[str]],
    *,
    seen_version: int | None = None,
    table_id: int | None = None,
) -> RoundPlayer:
    """Keep the player's complete layout in progress: not a submission, nobody is told.

    Validated like a submission (a forged or incomplete layout is refused and the last good
    draft stays); a foul one is kept too, and at the deadline the engine plays instead of it
    (docs/rules.md#timing). Sending the same draft again changes nothing.
    """
    _table, _round, _everyone, player = _arranging_player(user, round_id, seen_version, table_id)
    draft = _validated(player, chi)
    if draft != player.draft:
        player.draft = draft
        player.save(update_fields=["draft"])
    return player
