"""Errors a user can act on, with a stable code and a message in the user's language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.utils.functional import Promise

from core.errors import Refusal

E = TypeVar("E", bound=Exception)


class AccountError(Refusal):
    """The message is given (``code`` may come second, positionally) and carries no
    parameters: a ``TextRefused``'s ``params`` are its ``template``'s."""

    code = "account_error"

    def __init__(self, message: str | Promise, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.args = (str(message),)

    @property
    def message(self) -> str:
        # As given, not rendered: a lazy message stays lazy through a re-raise
        # (``AccountError(refused.message, code=refused.code)``) and speaks the reader's language.
        return cast(str, self._message)


class SeatRefused(AccountError):
    """The user may not take a seat at a table now."""

    code = "seat_refused"


class TextRefused(AccountError):
    """Free text the text policy (``accounts.text.clean_text``) refuses. Another app's
    error carries the same message with ``template`` and ``params`` (rendered when read)."""

    code = "text_refused"

    def __init__(
        self,
        message: str | Promise,
        code: str | None = None,
        *,
        params: dict[str, Any] | None = None,
        template: str | Promise | None = None,
    ) -> None:
        super().__init__(message, code)
        self.params = params or {}
        self.template = template if template is not None else message

    def as_error(self, error_class: Callable[..., E]) -> E:
        """The same refusal as another app's error (``GameError``, ``ModerationError``...:
        a message, a ``code`` and the message's parameters)."""
        return error_class(self.template, code=self.code, **self.params)
