"""Errors raised by the rules engine.

Every error is a ``ValueError`` carrying a stable ``code`` that the web server maps to a
translated message; the English message is for logs, the CLI and developers.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error the rules engine raises on bad input."""

    code: str

    def __init__(self, message: str, code: str = "rules_error") -> None:
        super().__init__(message)
        self.code = code


class CardError(RulesError):
    """A card string or number that is not one of the 52 cards."""


class ArrangementError(RulesError):
    """A submitted arrangement that does not split the player's 13 dealt cards 5 + 5 + 3."""


class RulesConfigError(RulesError):
    """An unknown preset, an unknown rule key or a value outside docs/rules.md#house-rules."""


class RoundInputError(RulesError):
    """A round that cannot be settled: wrong counts, shared or unknown cards, bad statuses."""
