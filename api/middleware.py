"""The API's language: a program says it with ``Accept-Language`` (docs/api.md#errors).

The site's pages follow the user's preference or the language cookie
(accounts.middleware); a request to the API's operations follows its Accept-Language
header instead (Vietnamese when it names neither language).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from accounts.middleware import SUPPORTED

# The API's operations, not its pages (the token page, OAuth's consent) which follow the
# site's language like every page.
_PAGES = ("/api/tokens/", "/api/oauth/")


def is_operation(path: str) -> bool:
    """Whether ``path`` is one of the API's operations (answered in JSON), not a page."""
    return path.startswith("/api/") and not path.startswith(_PAGES)


def requested_language(header: str) -> str | None:
    for code, _quality in parse_accept_lang_header(header or ""):
        base = code.split("-")[0].lower()
        if base in SUPPORTED:
            return base
    return None


class ApiLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_operation(request.path_info):
            return self.get_response(request)
        language = requested_language(request.headers.get("Accept-Language", "")) or "vi"
        with translation.override(language):
            request.LANGUAGE_CODE = language
            response = self.get_response(request)
        response.headers["Content-Language"] = language
        return response
