"""Xu into the game: the sign-up grant, the daily bonus and the bots' top-ups."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from ledger.errors import AlreadyClaimedToday
from ledger.keys import bonus_day, daily_bonus_key, issuance_key, wallet_key
from ledger.models import Account, Transfer, TransferKind
from ledger.services.posting import Leg, Posted, _lock_accounts, post_transfers
from ledger.transactions import atomic_with_retry

SIGNUP_GRANT_XU: int = settings.SIGNUP_GRANT_XU
DAILY_BONUS_XU = 1_000


def _mint(kind: str, user: Any, amount: int, key: str) -> Posted:
    """New xu from an issuance shard into the user's wallet, once per key."""
    leg = Leg(
        kind=kind, debit=issuance_key(key), credit=wallet_key(user.pk), amount=amount, key=key
    )
    return post_transfers([leg])[0]


def grant_signup_bonus(user: Any) -> Transfer:
    """The welcome grant, once per user (called inside the sign-up transaction)."""
    return _mint(
        TransferKind.SIGNUP_GRANT, user, SIGNUP_GRANT_XU, f"signup_grant:{user.pk}"
    ).transfer


def claim_daily_bonus(user: Any, *, now: Any = None) -> Transfer:
    """Credit today's bonus; a second claim the same Vietnamese calendar day is refused.

    The key names the day, so a double click posts once and the second click is told so.
    """
    key = daily_bonus_key(user.pk, bonus_day(now))
    posted = _mint(TransferKind.DAILY_BONUS, user, DAILY_BONUS_XU, key)
    if not posted.created:
        raise AlreadyClaimedToday()
    return posted.transfer


def flag_bot(user: Any) -> Account:
    """Mark a user's wallet as a bot's, so the dashboard can show the bots' net result."""

    def run() -> Account:
        wallet = _lock_accounts({wallet_key(user.pk)})[wallet_key(user.pk)]
        if not wallet.is_bot:
            wallet.is_bot = True
            wallet.save(update_fields=["is_bot"])
        return wallet

    return atomic_with_retry(run)


def top_up_bot(user: Any, amount: int, *, key: str) -> Transfer:
    """Mint xu into a bot's wallet (the bots feature calls this); flags the wallet as a bot."""
    flag_bot(user)
    return _mint(TransferKind.BOT_TOPUP, user, amount, key).transfer
