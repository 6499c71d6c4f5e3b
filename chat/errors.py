"""Refusals of table talk: a stable code and a message in the user's language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import GameError


class ChatError(GameError):
    code = "chat_forbidden"
    default_message = _("You cannot talk here now.")
