"""Your account: ``account_me`` (who, balance, where you sit, your round now) and
``bot_upgrade``."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from ninja import Router

from api import services
from api.errors import AUTHENTICATED, SCOPED, refusals
from api.root import Token, grant_of
from api.schemas import BotAccount, CurrentRound, Me, Seat
from games import selectors as game_selectors
from games.models import Seat as SeatRow
from games.selectors.rounds import rounds_dealt_today
from ledger import selectors as ledger_selectors

router = Router(tags=["account"])


@router.get(
    "/account",
    operation_id="account_me",
    response={200: Me},
    auth=Token(),
    openapi_extra=refusals(*AUTHENTICATED),
)
def account_me(request: HttpRequest) -> Me:
    """Who the token speaks for, their balance (xu), the token's scopes, where they sit and
    the round they are dealt in now (poll it, or follow the streams)."""
    grant = grant_of(request)
    user = grant.user
    seat_row = SeatRow.objects.filter(user=user).select_related("table").first()
    seat = current = None
    if seat_row is not None:
        seat = Seat(table=seat_row.table_id, position=seat_row.position)
        round_ = game_selectors.active_round(seat_row.table)
        player = round_.players.filter(user=user).first() if round_ is not None else None
        if round_ is not None and player is not None:
            current = CurrentRound.model_validate(
                {
                    "id": round_.pk,
                    "table": round_.table_id,
                    "state": round_.state,  # active_round: arranging or showdown
                    "deadline": round_.deadline.isoformat() if round_.deadline else None,
                    "version": seat_row.table.version,
                    "submitted": player.submitted_at is not None,
                }
            )
    return Me(
        id=user.pk,
        username=user.username,
        name=user.shown_name,
        language=user.preferred_language,
        is_bot=user.plays_as_bot,
        balance=ledger_selectors.balance(user),
        scopes=sorted(grant.scopes),
        seat=seat,
        round=current,
        rounds_today=rounds_dealt_today(user.pk),
        rounds_per_day=settings.API_BOT_ROUNDS_PER_DAY if user.is_api_bot else None,
    )


@router.post(
    "/bot/account/upgrade",
    operation_id="bot_upgrade",
    response={200: BotAccount},
    auth=Token("bot:play"),
    openapi_extra=refusals(*SCOPED, "not_upgradable", "has_played"),
)
def bot_upgrade(request: HttpRequest) -> BotAccount:
    """Make this account a bot account, for good: only an account that never played (no
    round, tournament or daily hand) can be upgraded. Needs ``bot:play``."""
    user = services.upgrade_to_bot(grant_of(request).user)
    return BotAccount(id=user.pk, username=user.username, is_bot=True)
