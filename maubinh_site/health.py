"""/healthz: is the database, the channel layer and the task broker reachable?"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from maubinh_site.celery import app


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def _channel_layer() -> str:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = async_to_sync(layer.new_channel)()
    message = {"type": "health.ping", "nonce": uuid.uuid4().hex}
    async_to_sync(layer.send)(channel, message)
    received = async_to_sync(layer.receive)(channel)
    if received != message:
        raise RuntimeError("channel layer returned another message")
    return type(layer).__name__


def _broker() -> str:
    if settings.CELERY_EMBEDDED_WORKER:
        return "memory (embedded worker)"
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
        return str(conn.as_uri())  # the password, if any, is masked


CHECKS: dict[str, Callable[[], str]] = {
    "database": _database,
    "channel_layer": _channel_layer,
    "broker": _broker,
}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    report: dict[str, dict[str, str]] = {}
    healthy = True
    for name, check in CHECKS.items():
        try:
            report[name] = {"status": "ok", "detail": check()}
        except Exception as exc:  # a health check reports every failure, whatever it is
            healthy = False
            report[name] = {"status": "error", "detail": f"{type(exc).__name__}: {exc}"}
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": report}, status=200 if healthy else 503
    )
