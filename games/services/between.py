"""Between rounds: the summary's time, a player's "wait" and "ready" (docs/protocol.md).

After a round the next deal comes ``SUMMARY_SECONDS`` later (countdown.round_over), time
to read the summary. A seated player may say they are ready: once everyone seated who is
a person has, the next round is dealt at once. At a private table a player may also ask
the table to wait: the deal moves to ``TABLE_WAIT_SECONDS`` from now, once per player and
round, and never further than ``TABLE_WAIT_LIMIT_SECONDS`` after the round ended, so one
player cannot hold a table for ever. Both are written to the ended round's log (kinds
``ready`` and ``wait``), which is what the table's next ``countdown`` event and the snapshot
report.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.errors import RoundError, SeatError
from games.models import Round, RoundEvent, Seat, Table
from games.selectors import BETWEEN_KINDS, between_view, latest_round
from games.selectors.rounds import kept_between, kept_people
from games.selectors.tables import seats_with_users
from games.services.common import lock_table, log
from games.services.countdown import restate_start, set_start
from games.services.rounds import deal
from games.services.writes import Writes, one_statement

Choice = Literal["wait", "ready"]


def _ended_at(round_: Round) -> datetime:
    """When the round ended: its settlement, or its last log entry (a voided round)."""
    if round_.settled_at is not None:
        return round_.settled_at
    last = RoundEvent.objects.filter(round=round_).order_by("-seq").first()
    return last.created_at if last is not None else timezone.now()


@transaction.atomic
def between_rounds(user: User, table_id: int, round_id: int, choice: Choice) -> Round | None:
    """``choice`` is ``ready`` or ``wait`` for the round that just ended (``round_id``: a
    tab still showing an older round is refused). Returns the round dealt, when everyone is
    now ready."""
    if choice not in BETWEEN_KINDS:
        raise ValueError("choice")
    table = lock_table(table_id)  # the table's command stream: a deal cannot slip in
    said = _said_on_the_row(table, round_id) if choice == "ready" else None
    people = kept_people(table, round_id) if said is not None else None
    latest = None
    if said is None:
        latest = latest_round(table, summary=False)
        if latest is None or latest.pk != round_id or not latest.is_finished:
            raise RoundError(
                _("That round is not the one that just ended."), code="not_between_rounds"
            )
    seated = None
    if people is None or user.pk not in people:  # the row does not say: read the seats
        seated = seats_with_users(table)
        if not any(seat.user_id == user.pk for seat in seated):
            raise SeatError(_("You are not seated at this table."), code="not_seated")
        people = _people(seated)
    if table.start_at is None:
        raise RoundError(_("No round is about to be dealt here."), code="no_countdown")
    if latest is not None:
        said = between_view(table, latest) or {"round": latest.pk, "ready": [], "waited": []}
    assert said is not None
    if choice == "wait":
        assert latest is not None  # read above: a wait is never answered from the row
        if not table.is_private:
            raise RoundError(
                _("Only a private table waits for its players: here the round starts on time."),
                code="not_private",
            )
        if user.pk in said["waited"]:
            raise RoundError(
                _("You already asked for more time this round."), code="already_waited"
            )
        limit = _ended_at(latest) + timedelta(seconds=settings.TABLE_WAIT_LIMIT_SECONDS)
        wanted = timezone.now() + timedelta(seconds=settings.TABLE_WAIT_SECONDS)
        when = min(max(table.start_at, wanted), limit)
        said["waited"].append(user.pk)
        said["ready"] = [u for u in said["ready"] if u != user.pk]
        # One write: the log entry, who said what (on the table) and the countdown.
        with one_statement() as writes:
            log(latest, "wait", {"until": when.isoformat()}, user, writes=writes)
            _keep(table, said, people, writes)
            set_start(table, when, extra={"between": said}, writes=writes)
        return None
    if user.pk in said["ready"]:
        return None  # said already: nothing changes
    said["ready"].append(user.pk)
    if set(people) <= set(said["ready"]) and seated is None:
        # The row's people are the seats' until a seat changes; the deal reads the seats.
        seated = seats_with_users(table)
        people = _people(seated)
    if set(people) <= set(said["ready"]):
        if latest is None:
            latest = latest_round(table, summary=False)  # the deal numbers the next one
        assert latest is not None and latest.pk == round_id
        log(latest, "ready", {}, user)
        return deal(table, latest, seats=seated)  # everyone is ready: why wait any longer
    # The deal stays when it was: a "ready" never puts it off (no pacing again, and the
    # timer already queued for that time still holds). One write: the log and the version.
    ended = latest if latest is not None else Round(pk=round_id, table=table)
    with one_statement() as writes:
        log(ended, "ready", {}, user, writes=writes)
        _keep(table, said, people, writes)
        restate_start(table, {"between": said}, writes=writes)
    return None


def _people(seated: list[Seat]) -> list[int]:
    """The people (not bots) among the seated, whose readies deal at once."""
    return [seat.user_id for seat in seated if not seat.user.is_bot]


def _said_on_the_row(table: Table, round_id: int) -> dict[str, Any] | None:
    """Who said what since ``round_id`` ended, from the table row alone, when the row can
    tell: while a countdown runs and ``Table.between`` names that round. It is written only
    for the latest round, once it has ended (countdown.round_over, _keep), and every deal
    clears it (rounds.deal), so that round is still the latest and has ended: no need to
    read it. None: the round is to be read (another round, or a row from before the
    field)."""
    return None if table.start_at is None else kept_between(table, round_id)


def _keep(table: Table, said: dict[str, Any], people: list[int], writes: Writes) -> None:
    """Who said what, on the table row with the log entry (``Table.between``): what the next
    ``ready`` and every snapshot of this countdown read instead of the log; with the people
    seated, which the next ``ready`` reads instead of the seats (until a seat changes:
    games.services.seats.seats_changed)."""
    table.between = {
        "round": said["round"],
        "ready": said["ready"],
        "waited": said["waited"],
        "people": people,
    }
    writes.update([table], ["between"])
