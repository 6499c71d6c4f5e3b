"""Your account: ``account_me``."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from api.core import Token, grant_of
from api.schemas import Account, Error
from ledger import selectors as ledger_selectors

router = Router(tags=["account"])

ERRORS = {401: Error, 403: Error, 429: Error}


@router.get("/account", operation_id="account_me", response={200: Account, **ERRORS}, auth=Token())
def account_me(request: HttpRequest) -> Account:
    """Who the token speaks for, their balance (xu) and the token's scopes."""
    grant = grant_of(request)
    user = grant.user
    return Account(
        id=user.pk,
        username=user.username,
        name=user.shown_name,
        language=user.preferred_language,
        is_bot=user.is_bot or user.is_api_bot,
        balance=ledger_selectors.balance(user),
        scopes=sorted(grant.scopes),
    )
