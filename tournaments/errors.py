"""Errors a player can act on: a stable code and a message in the player's language."""

from __future__ import annotations

from games.errors import GameError


class TournamentError(GameError):
    """Refused; nothing was changed."""

    code = "tournament_error"
