from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from games import querycount

        # What ends a login reaches its sockets as it happens (games.socket_session).
        user_logged_out.connect(_close_session_sockets, dispatch_uid="games.close_sockets")
        post_save.connect(
            _user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.user_saved"
        )
        post_delete.connect(
            _user_deleted, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.user_deleted"
        )
        querycount.install()  # benchmarks only (QUERY_COUNT_DIR)


def _close_session_sockets(sender: Any, request: HttpRequest, user: Any, **_kwargs: Any) -> None:
    """Logging out closes that session's sockets (sent before Django flushes the session)."""
    from games import events

    key = getattr(getattr(request, "session", None), "session_key", None)
    if key and getattr(user, "pk", None) is not None:
        events.end_session(user.pk, key)


def _user_saved(sender: Any, instance: Any, created: bool, **_kwargs: Any) -> None:
    """A deactivated user's sockets close; a new password has each check its session (the
    sessions from before it no longer log in, but the one that changed it was moved on)."""
    from games import events

    if created:
        return
    if not instance.is_active:
        events.end_logins(instance.pk)
    elif getattr(instance, "_password", None) is not None:  # set_password, then save
        events.check_logins(instance.pk)


def _user_deleted(sender: Any, instance: Any, **_kwargs: Any) -> None:
    from games import events

    events.end_logins(instance.pk)
