"""Pick the interface language: the user's preference, else the language cookie, else Vietnamese.

Django's LocaleMiddleware would follow the browser's Accept-Language; we want Vietnamese
by default whatever the browser says, with the switch remembered per user.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

SUPPORTED = {code for code, _name in settings.LANGUAGES}


def language_for(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.preferred_language in SUPPORTED:
        return str(user.preferred_language)
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in SUPPORTED:
        return str(cookie)
    return str(settings.LANGUAGE_CODE)


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = language_for(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        patch_vary_headers(response, ("Cookie",))
        return response
