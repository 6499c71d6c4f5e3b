"""Refusals a user can act on: a stable code, a message in their language, nothing changed."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.errors import Refusal


class ModerationError(Refusal):
    code = "moderation_error"
    default_message: str | Promise = _("This action is not possible now.")


class Forbidden(ModerationError):
    code = "forbidden"
    default_message = _("You are not allowed to do this.")


class NotFound(ModerationError):
    code = "not_found"
    default_message = _("Not found.")
