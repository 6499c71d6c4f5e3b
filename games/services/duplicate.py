"""Duplicate deals: committed board schedules, binding tables to them, revealing boards.

A schedule's board seeds are drawn and their SHA-256 published when the boards are
created, before any table can deal them; a board's seed is revealed only once no round
is playing it and the schedule is closed (or staff reveal that board), so nobody can
learn a board's hands from its seed while someone may still be dealt it. See
docs/duplicate.md.

A schedule may belong to a competition (``DuplicateSchedule.owner``: an arena's): then
only the tables its owner opens deal it. ``ensure_may_deal`` is the one check every way of
binding a table to a schedule goes through (``create_table``, ``assign_board``); the
ordinary paths (the lobby's form, the staff commands) present no owner.

Locks: a deal holds its table's lock and takes the board's row FOR SHARE (deals of one
board at many tables do not wait for each other); a reveal takes the board FOR UPDATE and
then looks for live rounds of it. So a reveal and a deal of the same board serialize: the
reveal either sees the new round (and leaves the seed secret) or the deal sees the board
revealed (and picks another). Recording that staff saw a board (``record_board_seen``)
takes it FOR UPDATE as well: either the record sees them dealt it (and is refused) or the
deal sees the record (and deals them another board).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Collection
from typing import Any

from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.text import clean_title
from games.errors import GameError, NotFound
from games.models import (
    BoardSeen,
    DuplicateBoard,
    DuplicateSchedule,
    Preset,
    Round,
    RoundPlayer,
    Table,
)
from games.rules.fair import commitment
from games.selectors.rounds import LIVE_STATES
from games.services.common import lock_table
from games.services.tables import valid_rules

logger = logging.getLogger(__name__)

MAX_BOARDS = 500
"""Boards one schedule may hold (a schedule is extended later if an event needs more)."""


class DuplicateError(GameError):
    code = "duplicate_error"


def board_client_seed(schedule_id: int, number: int) -> str:
    """A board's public client seed: fixed by the board, so nobody chooses it."""
    return f"duplicate:{schedule_id}:{number}"


def new_board_seed() -> str:
    """A fresh secret board seed (CSPRNG); tests replace it to get fixed boards."""
    return secrets.token_hex(32)


@transaction.atomic
def create_schedule(
    *,
    name: str,
    boards: int,
    preset: str = Preset.PORTAL,
    rules_overrides: dict[str, Any] | None = None,
    created_by: User | None = None,
    owner: str = DuplicateSchedule.OPEN,
) -> DuplicateSchedule:
    """A schedule of ``boards`` boards whose seeds are committed (hashed) now.

    ``owner``: the competition it belongs to (``tournament:<id>``), whose tables alone
    deal it; none (staff's schedules): any duplicate table may."""
    name = clean_title(name, DuplicateError, _("A schedule needs a name of 1 to 60 characters."))
    overrides = valid_rules(preset, rules_overrides)
    schedule = DuplicateSchedule.objects.create(
        name=name, preset=preset, rules_overrides=overrides, created_by=created_by, owner=owner
    )
    extend_schedule(schedule.pk, boards)
    return schedule


@transaction.atomic
def extend_schedule(schedule_id: int, boards: int) -> list[DuplicateBoard]:
    """Add ``boards`` boards after the schedule's last, each seed committed as it is drawn."""
    schedule = _lock_schedule(schedule_id)
    if schedule.closed_at is not None:
        raise DuplicateError(_("This duplicate schedule is closed."), code="schedule_closed")
    last = schedule.boards.order_by("-number").values_list("number", flat=True).first() or 0
    if not isinstance(boards, int) or not 1 <= boards <= MAX_BOARDS - last:
        raise DuplicateError(
            _("A schedule holds 1 to %(most)s boards."), code="bad_boards", most=MAX_BOARDS
        )
    rows = []
    for number in range(last + 1, last + boards + 1):
        seed = new_board_seed()
        rows.append(
            DuplicateBoard(
                schedule=schedule,
                number=number,
                seed=seed,
                seed_hash=commitment(seed),
                client_seed=board_client_seed(schedule.pk, number),
            )
        )
    return DuplicateBoard.objects.bulk_create(rows)


@transaction.atomic
def assign_board(
    table_id: int, schedule_id: int, board_no: int | None, *, owner: str = DuplicateSchedule.OPEN
) -> Table:
    """Bind a table to a schedule and, with ``board_no``, make its next deal that board.

    The arena's call: the table's next round deals board ``board_no`` (None: the lowest
    board nobody playing has been dealt). A round already live plays on with its own deal.
    The board is still skipped at the deal if a player about to be dealt it has already
    been dealt it elsewhere: nobody plays a board twice (``board_for_deal``).
    ``owner``: the competition the caller opens the table for (``ensure_may_deal``); a
    table bound to a competition's schedule is that competition's, to rebind as well.
    """
    table = lock_table(table_id)
    schedule = DuplicateSchedule.objects.filter(pk=schedule_id).first()
    if schedule is None:
        raise NotFound(_("This duplicate schedule does not exist."), code="no_schedule")
    ensure_may_deal(schedule, owner)
    if table.duplicate_schedule is not None:
        ensure_may_deal(table.duplicate_schedule, owner)
    ensure_rules_match(table, schedule)
    if schedule.closed_at is not None:
        raise DuplicateError(_("This duplicate schedule is closed."), code="schedule_closed")
    if board_no is not None:
        board = DuplicateBoard.objects.filter(schedule=schedule, number=board_no).first()
        if board is None:
            raise NotFound(_("This board is not in the schedule."), code="no_board")
        if board.is_revealed:
            raise DuplicateError(
                _("This board is over: its seed is revealed."), code="board_revealed"
            )
    table.duplicate_schedule = schedule
    table.next_board = board_no
    # Not a change a client sees before the deal (which bumps the version): no bump here.
    table.save(update_fields=["duplicate_schedule", "next_board"])
    return table


def ensure_may_deal(schedule: DuplicateSchedule, owner: str) -> None:
    """Whether a table opened for ``owner`` may deal ``schedule``: the one check.

    A competition's schedule (an arena's) is dealt only at the tables its owner opens:
    anyone else's table would show them its boards before the competition deals them, and
    add their results to its comparison (docs/duplicate.md). Every ordinary path (the
    lobby's form, the staff commands) presents no owner and may deal only open schedules;
    a competition's tables deal only its own.
    """
    if schedule.owner != owner:
        if schedule.owner:
            raise DuplicateError(
                _(
                    "This duplicate schedule belongs to a competition: only its own tables "
                    "deal its boards."
                ),
                code="schedule_private",
            )
        raise DuplicateError(
            _("A competition's tables deal only the competition's own schedule."),
            code="schedule_not_owned",
        )


def ensure_rules_match(table: Table, schedule: DuplicateSchedule) -> None:
    """Results of one board compare only under one set of rules."""
    if table.rules.to_dict() != schedule.rules.to_dict():
        raise DuplicateError(
            _("This table's rules differ from the duplicate schedule's."), code="rules_differ"
        )


def board_for_deal(table: Table, user_ids: Collection[int]) -> DuplicateBoard | None:
    """The board a duplicate table's deal plays now, locked FOR SHARE; None if none is left.

    The board assigned to the table if it can be played, else the lowest-numbered board of
    the schedule that is not revealed and that none of ``user_ids`` has been dealt (a
    voided round counts: its cards were seen) nor been shown (``BoardSeen``: staff who
    opened a round of it). The caller holds the table's lock.
    """
    schedule = table.duplicate_schedule
    if schedule is None or schedule.closed_at is not None:
        return None
    users = list(user_ids)
    unseen = (
        DuplicateBoard.objects.filter(schedule=schedule, revealed_at__isnull=True)
        .exclude(rounds__players__user_id__in=users)
        .exclude(seen_by__user_id__in=users)
        .order_by("number")
    )
    wanted = table.next_board
    for _attempt in range(3):
        number = None
        if wanted is not None:
            number = unseen.filter(number=wanted).values_list("number", flat=True).first()
            if number is None:
                logger.info("board %s cannot be dealt here now: the next one instead", wanted)
                wanted = None
        if number is None:
            number = unseen.values_list("number", flat=True).first()
        if number is None:
            return None
        board = _share_locked(schedule.pk, number)
        if (
            board is not None
            and not board.is_revealed
            # Read under the lock: a record committed before it is seen (record_board_seen).
            and not BoardSeen.objects.filter(board=board, user_id__in=users).exists()
        ):
            return board
        # Revealed, or shown to one of them, between the look and the lock: look again.
    return None


def _share_locked(schedule_id: int, number: int) -> DuplicateBoard | None:
    """The board row under FOR SHARE: a reveal (FOR UPDATE) waits for this deal's commit,
    and the deal of the same board at another table does not."""
    boards = DuplicateBoard.objects.filter(schedule_id=schedule_id, number=number)
    if connection.vendor != "postgresql":
        return boards.select_for_update().first()  # SQLite (the browser tests' site): no-op
    rows = DuplicateBoard.objects.raw(
        f"SELECT * FROM {DuplicateBoard._meta.db_table} "
        "WHERE schedule_id = %s AND number = %s FOR SHARE",
        [schedule_id, number],
    )
    return next(iter(rows), None)


@transaction.atomic
def reveal_board(schedule_id: int, board_no: int) -> DuplicateBoard:
    """Publish a board's seed (staff, or the arena when a board's play is over).

    Refused while a round of the board is live: its players could compute the others'
    hands. Revealing a board also means no table deals it again.
    """
    board = _lock_board(schedule_id, board_no)
    if board.is_revealed:
        return board
    if _live_rounds(board).exists():
        raise DuplicateError(
            _("A round of this board is still being played: its seed stays secret until then."),
            code="board_in_play",
        )
    board.revealed_at = timezone.now()
    board.save(update_fields=["revealed_at"])
    return board


@transaction.atomic
def close_schedule(schedule_id: int) -> DuplicateSchedule:
    """No more deals from the schedule; reveal every board no round is playing now.

    A board still being played is revealed when its last round ends (``round_finished``).
    """
    schedule = _lock_schedule(schedule_id)
    if schedule.closed_at is None:
        schedule.closed_at = timezone.now()
        schedule.save(update_fields=["closed_at"])
        Table.objects.filter(duplicate_schedule=schedule).update(next_board=None)
    for number in schedule.boards.filter(revealed_at__isnull=True).values_list("number", flat=True):
        board = _lock_board(schedule.pk, number)
        if not _live_rounds(board).exists():
            board.revealed_at = timezone.now()
            board.save(update_fields=["revealed_at"])
    return schedule


def round_finished(round_: Round) -> None:
    """A duplicate round ended (settled or voided): reveal its board if that was the last
    round playing it on a closed schedule. Called inside the round's transaction."""
    if round_.board_id is None:
        return
    board = DuplicateBoard.objects.select_for_update().select_related("schedule")
    locked = board.get(pk=round_.board_id)
    if locked.is_revealed or locked.schedule.closed_at is None:
        return
    if not _live_rounds(locked).exclude(pk=round_.pk).exists():
        locked.revealed_at = timezone.now()
        locked.save(update_fields=["revealed_at"])


class BoardInPlay(DuplicateError):
    code = "board_in_play_for_you"


@transaction.atomic
def record_board_seen(user: User, round_: Round, why: str) -> BoardSeen | None:
    """``user`` is about to be shown the cards of ``round_`` outside the round (staff
    opening its replay): if its board is still secret for them, record it, and from now on
    no table deals them that board (``board_for_deal``, the arena's pairing) and its cards
    are no secret for them (``games.selectors.board_audience``).

    None when there is nothing new to record: an ordinary round, a revealed board, one
    they were dealt or shown before. Refused (``board_in_play_for_you``) while they are dealt
    in a live round of the board: they would see the hands they play against.
    """
    if round_.board_id is None:
        return None
    # FOR UPDATE: a deal of this board (FOR SHARE) either committed before (and its round
    # is seen below) or waits, then sees this record (board_for_deal).
    dealt = DuplicateBoard.objects.values("schedule_id", "number").get(pk=round_.board_id)
    board = _lock_board(dealt["schedule_id"], dealt["number"])
    if board.is_revealed:
        return None
    theirs = RoundPlayer.objects.filter(round__board=board, user=user)
    if theirs.filter(round__state__in=LIVE_STATES).exists():
        raise BoardInPlay(
            _(
                "You are playing this board at a table right now: its other rounds stay "
                "closed to you until yours is over."
            )
        )
    if theirs.exists():
        return None  # dealt it before: its cards are no secret for them
    seen, created = BoardSeen.objects.get_or_create(
        board=board, user=user, defaults={"round": round_, "why": why}
    )
    return seen if created else None


def played_board(user_ids: Collection[int], board: DuplicateBoard) -> QuerySet[RoundPlayer]:
    """Who among ``user_ids`` has been dealt ``board`` (in any round, voided ones too)."""
    return RoundPlayer.objects.filter(round__board=board, user_id__in=list(user_ids))


def _live_rounds(board: DuplicateBoard) -> QuerySet[Round]:
    return Round.objects.filter(board=board, state__in=LIVE_STATES)


def _lock_schedule(schedule_id: int) -> DuplicateSchedule:
    schedule = DuplicateSchedule.objects.select_for_update().filter(pk=schedule_id).first()
    if schedule is None:
        raise NotFound(_("This duplicate schedule does not exist."), code="no_schedule")
    return schedule


def _lock_board(schedule_id: int, board_no: int) -> DuplicateBoard:
    board = (
        DuplicateBoard.objects.select_for_update()
        .filter(schedule_id=schedule_id, number=board_no)
        .first()
    )
    if board is None:
        raise NotFound(_("This board is not in the schedule."), code="no_board")
    return board
