"""The API's refusals: ``{"error": {"code", "message"}}`` with the socket's codes
(docs/protocol.md) and an HTTP status; the message is in the request's language."""

from __future__ import annotations

from typing import Any

from core.errors import Refusal

# The socket's codes that are not a conflict with the table's state.
_STATUS = {
    "malformed": 400,
    "chi_count": 400,
    "chi_size": 400,
    "card_unknown": 400,
    "card_duplicate": 400,
    "card_not_dealt": 400,
    "bad_client_seed": 400,
    "not_your_card": 400,
    "card_twice": 400,
    "foul": 400,
    "invalid": 400,
    "bad_rules": 400,
    "challenge_self": 400,
    "text_invisible": 400,
    "text_marks": 400,
    "text_too_long": 400,
    "unauthenticated": 401,
    "missing_scope": 403,
    "forbidden": 403,
    "suspended": 403,
    "inactive": 403,
    "private_table": 403,
    "join_refused": 403,
    "you_blocked": 403,
    "bots_not_allowed": 403,
    "not_challengeable": 403,
    "challenge_refused": 403,
    "not_found": 404,
    "not_in_round": 404,
    "rate_limited": 429,
    "too_many_streams": 429,
    "bot_round_cap": 429,
    "table_busy": 503,
}


class ApiError(Refusal):
    """Refused, with the HTTP status and headers of the answer; nothing was changed."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message, code=code)
        self.status = status
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def ensure_valid(form: Any) -> None:
    """A Django form's first refusal as ``invalid`` (400), naming its field."""
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        where = "" if field == "__all__" else f"{field}: "
        raise ApiError(400, "invalid", f"{where}{errors[0]}")


def status_of(code: str) -> int:
    """The HTTP status of a service's refusal: 409 (the state does not allow it) unless
    the code says otherwise."""
    return _STATUS.get(code, 409)


def from_refusal(exc: Refusal) -> ApiError:
    """Any app's refusal (core.errors.Refusal) as the API answers it: its code and message,
    the status its code has."""
    return ApiError(status_of(exc.code), exc.code, exc.message)


# The refusals every authenticated operation can meet (api.root.Token): no valid token,
# and the request limits; ``missing_scope`` where the operation needs a scope.
AUTHENTICATED = ("unauthenticated", "rate_limited")
SCOPED = (*AUTHENTICATED, "missing_scope")


def refusals(*codes: str) -> dict[str, Any]:
    """An operation's error answers for its schema (``openapi_extra``): for each HTTP
    status, exactly the codes this operation can answer with, as an ``enum`` of
    ``error.code`` and in the description (docs/api.md lists the same per operation)."""
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys(codes):  # in order, once each
        by_status.setdefault(status_of(code), []).append(code)
    responses: dict[int, Any] = {}
    for status, listed in sorted(by_status.items()):
        responses[status] = {
            "description": "Refused (nothing changed): " + ", ".join(f"`{c}`" for c in listed),
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "required": ["error"],
                        "properties": {
                            "error": {
                                "type": "object",
                                "required": ["code", "message"],
                                "properties": {
                                    "code": {"type": "string", "enum": listed},
                                    "message": {"type": "string"},
                                },
                            }
                        },
                    }
                }
            },
        }
    return {"responses": responses}


def error_codes(operation: dict[str, Any]) -> dict[int, list[str]]:
    """The codes an operation of the OpenAPI document lists, by status (``refusals``)."""
    found: dict[int, list[str]] = {}
    for status, response in operation.get("responses", {}).items():
        schema = response.get("content", {}).get("application/json", {}).get("schema", {})
        codes = schema.get("properties", {}).get("error", {}).get("properties", {})
        enum = codes.get("code", {}).get("enum")
        if enum:
            found[int(status)] = list(enum)
    return found


def ndjson(description: str, extra: dict[str, Any]) -> dict[str, Any]:
    """``extra`` (``refusals``) with a ``200`` answered as NDJSON, one JSON object a line."""
    ok = {
        "description": description,
        "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
    }
    return {"responses": {200: ok, **extra["responses"]}}
