"""Ledger errors: a stable `code` for programs and a translated message for people."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.errors import Refusal


class LedgerError(Refusal):
    """Its message is rendered once, when raised (as the ledger's always were), and the
    constructor takes no ``code``: each refusal of the ledger is a class of its own."""

    code = "ledger_error"
    default_message: str | Promise = _("The xu ledger refused this operation.")

    def __init__(self, message: str | Promise | None = None, **params: Any) -> None:
        super().__init__(message)
        self.params = params  # all of them, ``code`` too if one is given: the message's
        self._rendered = super().message
        self.args = (self._rendered,)

    @property
    def message(self) -> str:
        return self._rendered


class InvalidAmount(LedgerError):
    code = "invalid_amount"
    default_message = _("The amount must be a whole number of xu greater than zero.")


class ReasonRequired(LedgerError):
    code = "reason_required"
    default_message = _("A reason is required.")


class InsufficientFunds(LedgerError):
    code = "insufficient_funds"
    default_message = _("Not enough xu: the balance is %(balance)s xu, %(amount)s xu needed.")


class IdempotencyConflict(LedgerError):
    code = "idempotency_conflict"
    default_message = _(
        "The key %(key)s was already used for a different transfer; nothing was changed."
    )


class AlreadyClaimedToday(LedgerError):
    code = "already_claimed_today"
    default_message = _("You have already claimed today's bonus. Come back tomorrow!")


class RoundAlreadyClosed(LedgerError):
    code = "round_already_closed"
    default_message = _("Round %(round_id)s is already %(outcome)s; nothing was changed.")


class RoundSettledDifferently(RoundAlreadyClosed):
    code = "round_settled_differently"
    default_message = _(
        "Round %(round_id)s was already settled with different amounts; nothing was changed."
    )


class PoolAlreadyClosed(LedgerError):
    code = "pool_already_closed"
    default_message = _(
        "The prize pool of tournament %(tournament_id)s is already closed; nothing was changed."
    )


class NoPrizeHold(LedgerError):
    code = "no_prize_hold"
    default_message = _("The prizes of tournament %(tournament_id)s are not held for review.")


class HoldAlreadyDecided(LedgerError):
    code = "hold_decided"
    default_message = _(
        "The prizes of tournament %(tournament_id)s were already decided: %(outcome)s;"
        " nothing was changed."
    )


class InvalidSettlement(LedgerError):
    code = "invalid_settlement"
    default_message = _("This settlement is not valid: %(detail)s")


class NotReversible(LedgerError):
    code = "not_reversible"
    default_message = _("This transfer cannot be reversed: %(detail)s")


class AlreadyReversed(LedgerError):
    code = "already_reversed"
    default_message = _("Transfer #%(transfer_id)s has already been reversed.")


class StaffOnly(LedgerError):
    code = "staff_only"
    default_message = _("Only staff members can do this.")


class SelfPayment(LedgerError):
    code = "self_payment"
    default_message = _("Staff cannot pay themselves: another staff member must do it.")


class NeedsSecondAdmin(LedgerError):
    code = "needs_second_admin"
    default_message = _(
        "Adjustments above %(limit)s xu in 24 hours need a second admin: file it as a"
        " compensation in moderation, where another admin approves it."
    )
