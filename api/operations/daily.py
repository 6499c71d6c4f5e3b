"""The daily hand: ``daily_hand`` (today's cards, your result once played) and
``daily_submit`` (your one scored attempt), as the practice page."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest
from ninja import Router

from api.errors import AUTHENTICATED, SCOPED, refusals
from api.root import Token, grant_of
from api.schemas import DailyHand, DailySubmission
from practice import selectors as practice_selectors
from practice import services as practice_services
from practice.models import DailyAttempt, DailyDeal

router = Router(tags=["daily"])


def _hand(deal: DailyDeal, attempt: DailyAttempt | None) -> dict[str, Any]:
    played = None
    if attempt is not None:
        rank, total = practice_selectors.rank_of(attempt)
        # Your own arrangement, score and rank; never the engine's best nor anyone
        # else's before the day closes (docs/security.md).
        played = {"chi": attempt.chi, "ev": attempt.ev, "rank": rank, "of": total}
    return {
        "day": deal.day.isoformat(),
        "preset": deal.preset,
        "cards": deal.cards,
        "commitment": deal.server_seed_hash,
        "played": played,
    }


@router.get(
    "/daily",
    operation_id="daily_hand",
    response={200: DailyHand},
    auth=Token(),
    openapi_extra=refusals(*AUTHENTICATED),
)
def daily_hand(request: HttpRequest) -> dict[str, Any]:
    """Today's hand (the same 13 cards for everyone) and, once you played it, your score."""
    deal = practice_services.todays_deal()
    return _hand(deal, practice_selectors.attempt_of(grant_of(request).user, deal))


@router.post(
    "/daily",
    operation_id="daily_submit",
    response={200: DailyHand},
    auth=Token("play"),
    openapi_extra=refusals(
        *SCOPED,
        "malformed",
        "card_unknown",
        "not_your_card",
        "card_twice",
        "chi_size",
        "foul",
        "day_over",
        "already_played",
    ),
)
def daily_submit(request: HttpRequest, body: DailySubmission) -> dict[str, Any]:
    """Your one scored arrangement of today's hand."""
    user = grant_of(request).user
    deal = practice_services.todays_deal()
    attempt = practice_services.submit_daily(
        user, deal, json.dumps(body.chi)
    )  # a Refusal: api.root
    return _hand(deal, attempt)
