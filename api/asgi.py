"""The API's streams as daphne serves them: Django without the site's middleware.

Django's ASGI handler gives each request a thread of its own for its synchronous parts
(``ThreadSensitiveContext``) and keeps it until the response ends; the site's middleware
includes synchronous ones (WhiteNoise's, the language's, the address record's), so every
open stream would hold a thread, and the database connection its authentication opened,
for as long as it is open: 200 streams took 200 of each and ran PostgreSQL out of
connections. The streams need none of that middleware (no session, no page, no static
file), so ``maubinh_site.asgi`` sends their two paths here: the same URLs, the same
django-ninja operations (``api.streams``, in the OpenAPI document as every operation),
with no middleware and no thread of their own. Their few synchronous steps (the token's
check) share the process's one thread for them; the streams' database work runs on the
socket's pools (``games.consumers``).
"""

from __future__ import annotations

import re
from typing import Any

from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponseBase
from django.utils import translation

from api.middleware import requested_language

STREAM_PATHS = re.compile(r"^/api/(stream/event|tables/[^/]+/stream)$")
"""``events_stream`` and ``table_stream`` (``api.streams``)."""


class StreamHandler(ASGIHandler):
    """Django's ASGI handler for the streams: no middleware, no thread per request."""

    def load_middleware(self, is_async: bool = False) -> None:
        self._view_middleware: list[Any] = []
        self._template_response_middleware: list[Any] = []
        self._exception_middleware: list[Any] = []
        self._middleware_chain = convert_exception_to_response(self._in_language)

    async def _in_language(self, request: HttpRequest) -> HttpResponseBase:
        request.get_host()  # ALLOWED_HOSTS, as CommonMiddleware checks it (else a 400)
        # What api.middleware.ApiLanguageMiddleware does for the other operations.
        language = requested_language(request.headers.get("Accept-Language", "")) or "vi"
        with translation.override(language):
            response: HttpResponseBase = await self._get_response_async(request)  # type: ignore[attr-defined]
        response["Content-Language"] = language
        response["X-Content-Type-Options"] = "nosniff"
        return response

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # Not in a ThreadSensitiveContext: nothing here is kept per request.
        await self.handle(scope, receive, send)


def with_streams(django_app: Any) -> Any:
    """The site's HTTP application, the streams' paths served by ``StreamHandler``."""
    streams = StreamHandler()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        handler = streams if STREAM_PATHS.match(scope.get("path", "")) else django_app
        await handler(scope, receive, send)

    return app
