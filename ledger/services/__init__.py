"""Every xu movement goes through here, with an idempotency key, inside one transaction.

The games app calls `hold_many`, `settle_round` and `release_round_holds` inside its own
transaction; they use savepoints there and retry transient failures only when called on
their own.

The package is split along the ledger's seams: ``posting`` (the one write path every
service posts through: legs, account locks, the database function), ``rounds`` (holds,
settlement, a voided round's holds released), ``supply`` (the sign-up grant, the daily
bonus, the bots' top-ups), ``staff`` (the admin's adjustments and reversals, and the checks
every staff movement passes), ``pools`` (a tournament's buy-ins, refunds, prizes and prizes
held for review), ``remedies`` (moderation's compensation and re-settlement) and
``checks`` (the ledger check's runs). Names with a leading underscore are shared between
these modules only, never called from outside the package. ``posting.USE_DATABASE_FUNCTION``
is read where it is defined: set it there (the tests compare both write paths).
"""

from ledger.services.checks import CHECK_RUNS_KEPT, record_ledger_check
from ledger.services.pools import (
    buy_in,
    hold_prizes,
    pay_prizes,
    refund_buy_in,
    refund_pool,
    release_prizes,
    return_buy_ins,
)
from ledger.services.posting import Leg, Posted, post_transfers
from ledger.services.remedies import compensate, resettle_round, round_wallet_results
from ledger.services.rounds import fee_on_gain, hold, hold_many, release_round_holds, settle_round
from ledger.services.staff import adjust_balance, reverse_transfer
from ledger.services.supply import (
    DAILY_BONUS_XU,
    SIGNUP_GRANT_XU,
    claim_daily_bonus,
    flag_bot,
    grant_signup_bonus,
    top_up_bot,
)

__all__ = [
    "CHECK_RUNS_KEPT",
    "DAILY_BONUS_XU",
    "SIGNUP_GRANT_XU",
    "Leg",
    "Posted",
    "adjust_balance",
    "buy_in",
    "claim_daily_bonus",
    "compensate",
    "fee_on_gain",
    "flag_bot",
    "grant_signup_bonus",
    "hold",
    "hold_many",
    "hold_prizes",
    "pay_prizes",
    "post_transfers",
    "record_ledger_check",
    "refund_buy_in",
    "refund_pool",
    "release_prizes",
    "release_round_holds",
    "resettle_round",
    "return_buy_ins",
    "reverse_transfer",
    "round_wallet_results",
    "settle_round",
    "top_up_bot",
]
