from typing import Any

from django.apps import AppConfig
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from games import querycount

        user_logged_out.connect(_close_session_sockets, dispatch_uid="games.close_sockets")
        querycount.install()  # benchmarks only (QUERY_COUNT_DIR)


def _close_session_sockets(sender: Any, request: HttpRequest, **_kwargs: Any) -> None:
    """Logging out closes that session's sockets (sent before Django flushes the session)."""
    from games import events

    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        events.end_session(key)
