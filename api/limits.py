"""The API's limits (docs/api.md#limits): requests per window and concurrent streams, each
per token and per account. Over a limit the answer is 429 with ``Retry-After``.

Requests are counted in the cache (Redis on a real site, so every server process counts
together) in fixed windows of ``API_RATE_WINDOW_SECONDS``. Streams hold a lease row each
(``api.models.StreamLease``), so they are counted across processes and a stream whose
process died stops counting once its lease expires.
"""

from __future__ import annotations

import math
import time
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from api.auth import Grant
from api.models import StreamLease
from core.errors import Refusal


class LimitExceeded(Refusal):
    """Refused for a limit; the answer is 429 with ``Retry-After: retry_after``."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = max(1, retry_after)


class TooManyRequests(LimitExceeded):
    pass


class TooManyStreams(LimitExceeded):
    code = "too_many_streams"


def count_request(grant: Grant) -> None:
    """Count one request against its token and its account; raise ``TooManyRequests`` when
    either is over its limit for this window (the request is then not carried out)."""
    window = settings.API_RATE_WINDOW_SECONDS
    now = time.time()
    index = int(now // window)
    retry_after = math.ceil((index + 1) * window - now)
    for key, limit in (
        (f"api:req:{grant.token_id}:{index}", settings.API_REQUESTS_PER_TOKEN),
        (f"api:req:user:{grant.user.pk}:{index}", settings.API_REQUESTS_PER_ACCOUNT),
    ):
        cache.add(key, 0, timeout=window + 5)
        try:
            count = cache.incr(key)
        except ValueError:  # evicted between add and incr: this request opens the window
            cache.set(key, 1, timeout=window + 5)
            count = 1
        if count > limit:
            raise TooManyRequests(
                _("Too many requests: at most %(limit)d in %(window)d seconds.")
                % {"limit": limit, "window": window},
                retry_after,
            )


class StreamLeaseHandle:
    """An open stream's place in the limits. Call it (or ``release()``) when the stream
    ends; call ``renew()`` at least every ``API_STREAM_LEASE_SECONDS`` / 2 while it is open
    (with each keep-alive, say), or the lease expires and stops counting."""

    def __init__(self, lease_id: uuid.UUID) -> None:
        self.lease_id = lease_id
        self.released = False

    def __call__(self) -> None:
        self.release()

    def release(self) -> None:
        if not self.released:
            self.released = True
            StreamLease.objects.filter(pk=self.lease_id).delete()

    def renew(self) -> None:
        if not self.released:
            StreamLease.objects.filter(pk=self.lease_id).update(expires_at=_lease_end())


def _lease_end() -> datetime:
    return timezone.now() + timedelta(seconds=settings.API_STREAM_LEASE_SECONDS)


def acquire_stream(grant: Grant) -> StreamLeaseHandle:
    """A place for one more open stream of this token and account, or ``TooManyStreams``."""
    now = timezone.now()
    with transaction.atomic():
        # Two streams opened at once by one account would each count the others' leases
        # before either is written and both open past the limit: one at a time per account.
        User.objects.select_for_update().filter(pk=grant.user.pk).values_list("pk").first()
        StreamLease.objects.filter(user_id=grant.user.pk, expires_at__lte=now).delete()
        live = StreamLease.objects.filter(user_id=grant.user.pk, expires_at__gt=now)
        per_token = settings.API_STREAMS_PER_TOKEN
        per_account = settings.API_STREAMS_PER_ACCOUNT
        if live.filter(token_key=grant.token_id).count() >= per_token:
            raise TooManyStreams(
                _("Too many open streams: at most %(limit)d per token.") % {"limit": per_token},
                settings.API_STREAM_RETRY_SECONDS,
            )
        if live.count() >= per_account:
            raise TooManyStreams(
                _("Too many open streams: at most %(limit)d per account.") % {"limit": per_account},
                settings.API_STREAM_RETRY_SECONDS,
            )
        lease = StreamLease.objects.create(
            token_key=grant.token_id, user_id=grant.user.pk, expires_at=_lease_end()
        )
    return StreamLeaseHandle(lease.pk)
