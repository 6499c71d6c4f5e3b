"""Refuse requests carrying a NUL character anywhere a view could read it.

No form or query parameter of this site can mean anything with a NUL in it, and PostgreSQL
refuses it in text (a 500 wherever it reached a query). One check here, rather than in
every view, keeps the whole class from coming back; forms and services still validate
their own values.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext as _

from api.middleware import is_operation


def _has_nul(data: QueryDict) -> bool:
    return any("\x00" in key or any("\x00" in v for v in data.getlist(key)) for key in data)


class RefuseNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        post = request.POST if request.method == "POST" else QueryDict()
        if "\x00" in request.path or _has_nul(request.GET) or _has_nul(post):
            if is_operation(request.path_info):
                # A program reads the API's error shape (docs/api.md#errors), not a page.
                message = _("This request holds a NUL character, which no field takes.")
                return JsonResponse(
                    {"error": {"code": "malformed", "message": message}}, status=400
                )
            return render(request, "bad_request.html", status=400)
        return self.get_response(request)
