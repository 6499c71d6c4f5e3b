"""The floor relay served by daphne: ``python -m daphne benchmarks.floor.asgi:application``.

HTTP answers ``/healthz`` (how tests.support.processes sees a server is up); websockets at
the site's table path go to the relay."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.floor.settings")

import django

django.setup()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from benchmarks.floor.relay import RelayConsumer  # noqa: E402


async def healthz(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Every HTTP request: 200 ``ok`` (the relay serves nothing else)."""
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain")]})  # fmt: skip
    await send({"type": "http.response.body", "body": b"ok"})


application = ProtocolTypeRouter(
    {
        "http": healthz,
        "websocket": URLRouter([path("ws/tables/<int:table_id>/", RelayConsumer.as_asgi())]),
    }
)
