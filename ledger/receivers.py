"""Signal receivers: other apps announce events, the ledger moves xu."""

from __future__ import annotations

from typing import Any

from ledger import services


def grant_on_sign_up(sender: Any, user: Any, grant: bool = True, **_kwargs: Any) -> None:
    """The welcome grant, unless the account's address has had the day's grants (accounts:
    SIGNUP_GRANTS_PER_ADDRESS_PER_DAY)."""
    if grant:
        services.grant_signup_bonus(user)
