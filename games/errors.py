"""Errors a player can act on: a stable code for clients, a message in the player's language."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class GameError(Exception):
    """Refused; nothing was changed. ``message`` renders in the language active when read."""

    code = "game_error"
    default_message: str | Promise = _("This action is not possible now.")

    def __init__(
        self, message: str | Promise | None = None, *, code: str | None = None, **params: Any
    ):
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


class NotFound(GameError):
    code = "not_found"
    default_message = _("This table or round does not exist.")


class SeatError(GameError):
    code = "seat_error"


class RoundError(GameError):
    code = "round_error"


class StaleVersion(GameError):
    code = "stale_version"
    default_message = _("Your view is out of date; it has been refreshed. Please try again.")


class TableBusy(GameError):
    """The table's lock was not granted in time (another command holds it too long)."""

    code = "table_busy"
    default_message = _("The table is busy; please try again in a moment.")
