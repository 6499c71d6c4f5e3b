"""Signal receivers: other apps announce events, the ledger moves xu."""

from __future__ import annotations

from typing import Any

from ledger import services


def grant_on_sign_up(sender: Any, user: Any, **_kwargs: Any) -> None:
    services.grant_signup_bonus(user)
