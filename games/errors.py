"""Errors a player can act on: a stable code for clients, a message in the player's language."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.errors import Refusal


class GameError(Refusal):
    """Refused; nothing was changed. ``message`` renders in the language active when read."""

    code = "game_error"
    default_message: str | Promise = _("This action is not possible now.")


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
