"""`{% player_actions other %}`: befriend / block / challenge buttons for another player, on
any page.

A template tag, so pages of sibling apps (the public profile) show them without importing
`social` (import-linter keeps sibling apps apart).
"""

from __future__ import annotations

from typing import Any

from django import template

from social import selectors
from social.forms import ChallengeForm

register = template.Library()


@register.inclusion_tag("social/_player_actions.html", takes_context=True)
def player_actions(context: template.Context, other: Any) -> dict[str, Any]:
    request = context["request"]
    if not request.user.is_authenticated:
        # "self" shows no button: a visitor has nobody to befriend or block as.
        return {"relation": "self", "other": other, "request": request}
    return {
        "relation": selectors.relation(request.user, other),
        "other": other,
        "request": request,
        # The "Challenge" form (stake, rules preset), or the challenge already waiting.
        "challenge_form": ChallengeForm(),
        "challenge_sent": selectors.challenge_waiting(request.user, other),
    }
