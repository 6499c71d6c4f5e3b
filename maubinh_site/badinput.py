"""Refuse requests carrying a NUL character anywhere a view could read it.

No form or query parameter of this site can mean anything with a NUL in it, and PostgreSQL
refuses it in text (a 500 wherever it reached a query). One check here, rather than in
every view, keeps the whole class from coming back; forms and services still validate
their own values.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render


def _has_nul(data: QueryDict) -> bool:
    return any("\x00" in key or any("\x00" in v for v in data.getlist(key)) for key in data)


class RefuseNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        post = request.POST if request.method == "POST" else QueryDict()
        if "\x00" in request.path or _has_nul(request.GET) or _has_nul(post):
            return render(request, "bad_request.html", status=400)
        return self.get_response(request)
