"""/healthz: is the database, the channel layer and the task broker reachable?"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu import Connection

from maubinh_site.celery import app


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


async def _round_trip(layer: Any) -> None:
    """Send a message to a fresh channel and read it back."""
    channel = await layer.new_channel()
    message = {"type": "health.ping", "nonce": uuid.uuid4().hex}
    receiving = asyncio.ensure_future(layer.receive(channel))
    try:
        # A new pub/sub subscription takes effect when Redis gets to it, which may be
        # just after a publish sent on another connection: send again until it arrives.
        for _attempt in range(10):
            await layer.send(channel, message)
            done, _pending = await asyncio.wait({receiving}, timeout=0.5)
            if done:
                break
        else:
            raise TimeoutError("nothing came back through the channel layer in 5 s")
        if receiving.result() != message:
            raise RuntimeError("channel layer returned another message")
    finally:
        await _stop_reading(layer, channel, receiving)


async def _stop_reading(layer: Any, channel: str, reader: asyncio.Future[Any]) -> None:
    """Cancel a pending receive: that is how a layer learns that nobody reads a channel
    any more (it is how a consumer leaves), and the pub/sub layer then unsubscribes it,
    where it would otherwise stay, one channel per health check, for the life of the
    process. Pings still queued (sent again above) are read off first."""
    while True:
        if not reader.done():
            await asyncio.sleep(0)  # let a fresh receive reach its wait
        if reader.done():
            reader = asyncio.ensure_future(layer.receive(channel))
            continue
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
        return


def _channel_layer() -> str:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    async_to_sync(_round_trip)(layer)
    return type(layer).__name__


def _broker() -> str:
    if settings.CELERY_EMBEDDED_WORKER:
        return "memory (embedded worker)"
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
        # The broker's address, its password masked; kombu would name the transport class
        # (maubinh_site.broker) where the URL says redis://.
        return str(Connection(settings.CELERY_BROKER_URL).as_uri())


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
