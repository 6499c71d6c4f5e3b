"""Refusals a user can act on: a stable code, a message in their language, nothing changed.

The same shape as the tables' refusals (``games.errors.GameError``): a social refusal that
comes from a table (an invite link) keeps its code and message.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import GameError


class SocialError(GameError):
    code = "social_error"


class NotFound(SocialError):
    code = "not_found"
    default_message = _("Not found.")
