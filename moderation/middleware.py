"""Remember each logged-in user's address (a collusion signal), writing only when it changes."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts.addresses import client_address
from moderation.services.addresses import record_user_ip

SESSION_KEY = "moderation_ip"


class RecordAddressMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        # The peer daphne saw (behind a proxy, the client's): accounts.addresses.
        ip = client_address(request)
        if (
            user is not None
            and user.is_authenticated
            and ip
            and request.session.get(SESSION_KEY) != ip
        ):
            record_user_ip(user, ip)
            request.session[SESSION_KEY] = ip
        return self.get_response(request)
