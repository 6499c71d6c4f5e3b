"""ASGI entry: HTTP to Django (the API's streams through ``api.asgi``), websockets to
Channels behind origin and session checks."""

from __future__ import annotations

import os
import sys

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "maubinh_site.settings")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from api.asgi import with_streams  # noqa: E402
from games.consumers import login_stack  # noqa: E402
from maubinh_site.embedded import start_embedded_worker  # noqa: E402
from maubinh_site.routing import websocket_urlpatterns  # noqa: E402

start_embedded_worker()
# Table commands are short and mostly wait on the database; when one comes back from a
# query it waits for the GIL, which a busy thread (the event loop writing frames) keeps
# for up to the switch interval (5 ms by default), once per query. A shorter interval
# keeps commands, and the table locks they hold, from queueing behind it.
sys.setswitchinterval(settings.GIL_SWITCH_INTERVAL_US / 1_000_000)

application = ProtocolTypeRouter(
    {
        # The API's NDJSON streams without the pages' middleware (api.asgi: no thread each).
        "http": with_streams(django_asgi_app),
        "websocket": AllowedHostsOriginValidator(login_stack(URLRouter(websocket_urlpatterns))),
    }
)
