"""The one base of every refusal a user can act on.

A ``Refusal`` means: refused, nothing was changed. It carries a stable ``code`` for
programs and clients (a socket's error frame, a test, the staff audit log), a message for
people and the message's parameters. Each app's base extends it (``GameError``,
``LedgerError``, ``AccountError``, ``ModerationError``, and through them the tables',
chat's, social's and tournaments' refusals), so a layer that calls another catches one
class: ``except Refusal`` keeps the callee's code and message as they are.

The rules library (``games.rules``) stays apart, with its own ``RulesError``: it imports
neither Django nor this package.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class Refusal(Exception):
    """Refused; nothing was changed. ``message`` renders in the language active when read:
    ``message % params`` of the message given, else of the class's ``default_message``."""

    code = "refused"
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

    def __str__(self) -> str:
        return self.message
