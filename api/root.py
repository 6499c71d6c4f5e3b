"""The API's one ``NinjaAPI``: its authentication, its error shape and its routers.

Every operation is one call thick: it parses (pydantic, from the schema), authenticates
(``Token``: a bearer token with the scope it needs, counted against the limits), calls a
service or a selector and answers. A refusal of any kind is
``{"error": {"code", "message"}}`` (``api.errors``).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.openapi.docs import Swagger
from ninja.security import HttpBearer

from api import limits
from api.auth import Grant, authenticate_bearer
from api.errors import ApiError, from_refusal
from core.errors import Refusal

api = NinjaAPI(
    title="Mậu Binh Online API",
    version="1",
    description="Play, watch, export and compete from any program: docs/api.md.",
    urls_namespace="api",
    docs=Swagger(),
    docs_url="/docs/",
    openapi_url="/openapi.json",
)


class Token(HttpBearer):
    """A bearer token (personal or OAuth 2) carrying one of ``scopes`` (any, when empty).

    ``play`` stands for "may play": the ``play`` scope, or ``bot:play`` on a bot account.
    Each authenticated request counts against the token's and the account's limits."""

    openapi_scheme = "bearer"

    def __init__(self, *scopes: str) -> None:
        super().__init__()
        self.scopes = scopes

    def __call__(self, request: HttpRequest) -> Any:
        header = request.headers.get("Authorization", "")
        grant = authenticate_bearer(header)
        if grant is None:
            return None
        return self.admit(request, grant)

    def authenticate(self, request: HttpRequest, token: str) -> Any:  # pragma: no cover
        return self.admit(request, authenticate_bearer(f"Bearer {token}"))

    def admit(self, request: HttpRequest, grant: Grant | None) -> Grant | None:
        if grant is None:
            return None
        limits.count_request(grant)
        if self.scopes and not any(_holds(grant, scope) for scope in self.scopes):
            raise ApiError(
                403,
                "missing_scope",
                _("This token lacks the scope this needs: %(scopes)s.")
                % {"scopes": ", ".join(self.scopes)},
            )
        request.user = grant.user
        request.grant = grant  # type: ignore[attr-defined]
        return grant


def _holds(grant: Grant, scope: str) -> bool:
    return grant.may_play if scope == "play" else grant.has(scope)


def grant_of(request: HttpRequest) -> Grant:
    return request.auth  # type: ignore[attr-defined,no-any-return]


def _error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    response = api.create_response(request, exc.body(), status=exc.status)
    for name, value in exc.headers.items():
        response[name] = value
    return response


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return _error(request, exc)


@api.exception_handler(Refusal)
def _refused(request: HttpRequest, exc: Refusal) -> HttpResponse:
    """Any app's refusal (a table's, the ledger's, an account's, …): ninja looks handlers
    up along the exception's classes, so ApiError and the limits keep their own."""
    return _error(request, from_refusal(exc))


@api.exception_handler(limits.LimitExceeded)
def _limited(request: HttpRequest, exc: limits.LimitExceeded) -> HttpResponse:
    headers = {"Retry-After": str(exc.retry_after)}
    return _error(request, ApiError(429, exc.code, exc.message, headers))


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    message = _("Send a valid token: Authorization: Bearer <token>.")
    return _error(
        request, ApiError(401, "unauthenticated", message, {"WWW-Authenticate": "Bearer"})
    )


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    where = ", ".join(
        ".".join(str(part) for part in error.get("loc", ())) for error in exc.errors[:5]
    )
    message = _("This request is missing a field or has a wrong value: %(where)s.") % {
        "where": where
    }
    return _error(request, ApiError(400, "malformed", message))


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return _error(request, ApiError(404, "not_found", _("No such thing here.")))


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    code = "not_found" if exc.status_code == 404 else "malformed"
    return _error(request, ApiError(exc.status_code, code, str(exc)))


def _routers() -> None:
    from api import streams  # here: the streams' operations use Token, above
    from api.operations import account, challenges, daily, rounds, tables, tournaments

    for module in (account, tables, rounds, tournaments, daily, challenges):
        api.add_router("", module.router)
    # The NDJSON streams (table_stream, events_stream) live in api/streams.py.
    api.add_router("", streams.router)


_routers()
