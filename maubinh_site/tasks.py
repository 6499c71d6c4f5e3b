"""Site-level tasks: the heartbeat that proves timers fire."""

from __future__ import annotations

from django.core.cache import cache

from maubinh_site.celery import app

HEARTBEAT_TTL = 300


@app.task(name="maubinh_site.heartbeat")
def heartbeat_task(key: str) -> None:
    """Record that a (possibly delayed) task ran, for /healthz and the timer tests."""
    from django.utils import timezone

    cache.set(f"heartbeat:{key}", timezone.now().isoformat(), HEARTBEAT_TTL)


def heartbeat_seen(key: str) -> str | None:
    value = cache.get(f"heartbeat:{key}")
    return value if isinstance(value, str) else None
