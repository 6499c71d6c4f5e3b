"""Tournament prizes held for review (docs/moderation.md): the entrants are told, a
moderator releases the prizes or returns the buy-ins."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from ledger import selectors as ledger_selectors
from ledger import services as ledger
from ledger.models import HoldOutcome, PrizeHold, PrizeHoldDecision
from moderation.errors import Forbidden, ModerationError, NotFound
from moderation.models import ActionKind
from moderation.services.base import (
    as_id,
    audit,
    refusals_recorded,
    require_moderator,
    require_reason,
)
from notices import selectors as notice_selectors
from notices import services as notices
from notices.models import NotificationKind


def _hold_entrants(hold: PrizeHold) -> list[int]:
    """The people who bought in to the held tournament or are owed one of its prizes."""
    ids = ledger_selectors.prize_hold_entrants(hold.tournament_id)
    return list(User.objects.filter(pk__in=ids, is_bot=False).values_list("pk", flat=True))


def notify_prize_hold(tournament_id: int) -> int:
    """Tell each entrant that the tournament's prizes are under review (once each)."""
    hold = ledger_selectors.prize_hold(tournament_id)
    if hold is None:
        return 0
    told = notice_selectors.told(NotificationKind.PRIZES_HELD, tournament_id=tournament_id)
    fresh = [user for user in _hold_entrants(hold) if user not in told]
    return notices.notify_each(fresh, NotificationKind.PRIZES_HELD, _hold_params(hold))


def _hold_params(hold: PrizeHold) -> dict[str, Any]:
    """What a notice about a held tournament names, and where it leads."""
    return {"tournament_id": hold.tournament_id, "tournament": hold.title, "url": hold.url}


DECISIONS = {
    "release": (HoldOutcome.RELEASED, ActionKind.RELEASE_PRIZES, NotificationKind.PRIZES_RELEASED),
    "return": (HoldOutcome.RETURNED, ActionKind.RETURN_BUY_INS, NotificationKind.BUY_INS_RETURNED),
}


@refusals_recorded("decide_prizes", "tournaments.tournament")
@transaction.atomic
def decide_prizes(
    moderator: User, tournament_id: Any, *, decision: str, reason: str
) -> tuple[PrizeHoldDecision, bool]:
    """A moderator decides a tournament's held prizes: ``release`` (the recorded prizes are
    paid) or ``return`` (each buy-in goes back). Once: a repeat of the same decision (a
    double click, a second tab) changes nothing and is not logged again; the other one is
    refused. Returns (the decision, whether this call made it)."""
    require_moderator(moderator)
    if decision not in DECISIONS:
        raise ModerationError(_("Choose to release the prizes or return the buy-ins."))
    outcome, action, kind = DECISIONS[decision]
    reason = require_reason(reason)
    hold = ledger_selectors.prize_hold(as_id(tournament_id))
    if hold is None:
        raise NotFound()
    entrants = _hold_entrants(hold)
    # Deciding who is paid: never for a tournament one played in.
    if moderator.pk in ledger_selectors.prize_hold_entrants(hold.tournament_id):
        raise Forbidden(
            _("You played in this tournament: another staff member must decide its prizes."),
            code="conflict_of_interest",
        )
    decide = ledger.release_prizes if outcome == HoldOutcome.RELEASED else ledger.return_buy_ins
    made, new = decide(hold.tournament_id, actor=moderator, reason=reason)
    if new:
        audit(
            moderator,
            action,
            hold,
            reason=reason,
            before={"status": "pending", "prizes": hold.prizes, "findings": hold.findings},
            after={"outcome": made.outcome, "paid": made.paid},
        )
        notices.notify_each(entrants, kind, _hold_params(hold))
    return made, new
