"""Refusals a user can act on: a stable code, a message in their language, nothing changed."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class SocialError(Exception):
    code = "social_error"
    default_message: str | Promise = _("This action is not possible now.")

    def __init__(
        self, message: str | Promise | None = None, *, code: str | None = None, **params: Any
    ) -> None:
        self._message = message if message is not None else self.default_message
        self.params = params
        if code is not None:
            self.code = code
        super().__init__(self.code)

    @property
    def message(self) -> str:
        text = str(self._message)
        return text % self.params if self.params else text


class Forbidden(SocialError):
    code = "forbidden"
    default_message = _("You are not allowed to do this.")


class NotFound(SocialError):
    code = "not_found"
    default_message = _("Not found.")
