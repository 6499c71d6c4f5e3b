"""The API's refusals: ``{"error": {"code", "message"}}`` with the socket's codes
(docs/protocol.md) and an HTTP status; the message is in the request's language."""

from __future__ import annotations

from typing import Any

from games.errors import GameError

# The socket's codes that are not a conflict with the table's state.
_STATUS = {
    "malformed": 400,
    "chi_count": 400,
    "chi_size": 400,
    "card_unknown": 400,
    "card_duplicate": 400,
    "card_not_dealt": 400,
    "bad_client_seed": 400,
    "invalid": 400,
    "unauthenticated": 401,
    "missing_scope": 403,
    "forbidden": 403,
    "suspended": 403,
    "inactive": 403,
    "private_table": 403,
    "join_refused": 403,
    "you_blocked": 403,
    "bots_not_allowed": 403,
    "not_found": 404,
    "not_in_round": 404,
    "rate_limited": 429,
    "too_many_streams": 429,
    "bot_round_cap": 429,
    "table_busy": 503,
}


class ApiError(Exception):
    """Refused; nothing was changed."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(code)
        self.status, self.code, self.message = status, code, message
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def status_of(code: str) -> int:
    """The HTTP status of a service's refusal: 409 (the state does not allow it) unless
    the code says otherwise."""
    return _STATUS.get(code, 409)


def from_game_error(exc: GameError) -> ApiError:
    return ApiError(status_of(exc.code), exc.code, exc.message)
