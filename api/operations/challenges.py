"""Challenges: ``challenge_create``, ``challenge_accept``, ``challenge_decline`` and
``challenge_cancel``: the services the player page and the inbox call
(docs/social.md#challenges)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router, Status

from accounts.models import User
from api.errors import SCOPED, ApiError, ensure_valid, refusals
from api.root import Token, grant_of
from api.schemas import ChallengeOut, NewChallenge
from social import services
from social.forms import ChallengeForm
from social.models import Challenge
from social.selectors import challenge_event

router = Router(tags=["challenges"])

# What answering a challenge can meet, whoever answers.
ANSWER_REFUSALS = ("malformed", "not_found", "challenge_expired", "already_answered")
# Accepting seats you at its new table (games.services.seats.sit) after the challenger
# (``challenger_unavailable``: seated elsewhere since, or short of xu now).
ACCEPT_REFUSALS = (
    *ANSWER_REFUSALS,
    "challenger_unavailable",
    "already_seated",
    "engaged",
    "join_refused",
    "you_blocked",
    "suspended",
    "inactive",
    "balance_too_low",
    "bot_round_cap",
    "table_busy",
)


def _answer(challenge: Challenge) -> dict[str, Any]:
    challenge = Challenge.objects.select_related("challenger", "challenged").get(pk=challenge.pk)
    return challenge_event(challenge)


@router.post(
    "/challenges",
    operation_id="challenge_create",
    response={201: ChallengeOut},
    by_alias=True,  # ``from``
    auth=Token("play"),
    openapi_extra=refusals(
        *SCOPED,
        "malformed",
        "invalid",
        "bad_rules",
        "challenge_self",
        "not_found",
        "not_challengeable",
        "you_blocked",
        "challenge_refused",
        "suspended",
        "inactive",
        "balance_too_low",
        "too_many_challenges",
    ),
)
def challenge_create(request: HttpRequest, body: NewChallenge) -> Status[Any]:
    """Challenge one player (``username``) to a heads-up table at your stake and rules:
    validated by the lobby's create-table form. They see it on their event stream and in
    their inbox until they answer or it expires. Challenging them again while it waits
    answers with the same challenge."""
    data = {k: v for k, v in body.dict().items() if v is not None and k != "username"}
    form = ChallengeForm(data)
    ensure_valid(form)
    other = User.objects.filter(username__iexact=body.username.strip(), is_active=True).first()
    if other is None:
        raise ApiError(404, "not_found", _("No player has this name."))
    made = services.challenge(grant_of(request).user, other, **form.challenge_options())
    return Status(201, _answer(made))


def _challenge_id(value: int) -> int:
    if not 0 < value < 2**63:
        raise ApiError(404, "not_found", _("This challenge does not exist."))
    return value


def _answering(verb: str, service: Any, codes: tuple[str, ...], doc: str) -> None:
    """``challenge_<verb>``: ``POST /challenges/{id}/<verb>``, one service call."""

    def operation(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
        user = grant_of(request).user
        return _answer(service(user, _challenge_id(challenge_id)))

    operation.__name__ = operation.__qualname__ = f"challenge_{verb}"
    operation.__doc__ = doc
    router.post(
        f"/challenges/{{challenge_id}}/{verb}",
        operation_id=f"challenge_{verb}",
        response={200: ChallengeOut},
        by_alias=True,  # ``from``
        auth=Token("play"),
        openapi_extra=refusals(*SCOPED, *codes),
    )(operation)


_answering(
    "accept",
    services.accept_challenge,
    ACCEPT_REFUSALS,
    """Accept a challenge to you: its table opens, private, with both of you seated
    (``table`` in the answer, and a ``challenge_accepted`` line on both event streams).
    Accepting again answers the same.""",
)
_answering(
    "decline",
    services.decline_challenge,
    ANSWER_REFUSALS,
    "Decline a challenge to you; declining again answers the same.",
)
_answering(
    "cancel",
    services.cancel_challenge,
    ANSWER_REFUSALS,
    "Take back a challenge you made; cancelling again answers the same.",
)
