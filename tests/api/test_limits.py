"""Requests per window and concurrent streams, per token and per account: 429 with
Retry-After once over."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from api import limits
from api.auth import authenticate_bearer
from api.models import StreamLease

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every request of a test falls in one window of the limits: a window's edge passing
    between two requests (a busy machine makes a test last seconds) starts the count again."""
    frozen = time.time()
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: frozen))


def test_limits_answer_429_with_retry_after_past_the_requests_per_token(
    make_user, token_for, api_client, settings
) -> None:
    settings.API_REQUESTS_PER_TOKEN = 3
    settings.API_RATE_WINDOW_SECONDS = 60
    client = api_client(token_for(make_user(), "read"))
    assert [client.get("/account").status_code for _ in range(3)] == [200, 200, 200]

    refused = client.get("/account")

    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(refused["Retry-After"]) <= 60


def test_the_account_limit_counts_every_token_of_the_account(
    make_user, token_for, api_client, settings
) -> None:
    settings.API_REQUESTS_PER_TOKEN = 100
    settings.API_REQUESTS_PER_ACCOUNT = 4
    user = make_user()
    first, second = api_client(token_for(user, "read")), api_client(token_for(user, "read"))
    assert [first.get("/account").status_code for _ in range(2)] == [200, 200]
    assert [second.get("/account").status_code for _ in range(2)] == [200, 200]
    assert second.get("/account").status_code == 429
    assert first.get("/account").status_code == 429
    other = api_client(token_for(make_user(), "read"))
    assert other.get("/account").status_code == 200  # another account is not held back


def test_a_stream_over_the_limit_is_refused_and_a_released_one_frees_its_place(
    make_user, token_for, settings
) -> None:
    settings.API_STREAMS_PER_TOKEN = 2
    settings.API_STREAMS_PER_ACCOUNT = 3
    user = make_user()
    grant = authenticate_bearer(f"Bearer {token_for(user, 'read')}")
    other = authenticate_bearer(f"Bearer {token_for(user, 'read')}")
    assert grant is not None and other is not None
    held = [limits.acquire_stream(grant), limits.acquire_stream(grant)]
    with pytest.raises(limits.TooManyStreams) as refused:
        limits.acquire_stream(grant)
    assert refused.value.retry_after >= 1
    third = limits.acquire_stream(other)  # the token's limit is its own
    with pytest.raises(limits.TooManyStreams):
        limits.acquire_stream(other)  # ... the account's counts both tokens
    held[0]()
    limits.acquire_stream(grant)
    third.release()
    assert StreamLease.objects.filter(user=user).count() == 2


def test_a_lease_its_process_never_renewed_stops_counting(make_user, token_for, settings) -> None:
    from datetime import timedelta

    from django.utils import timezone

    settings.API_STREAMS_PER_TOKEN = 1
    grant = authenticate_bearer(f"Bearer {token_for(make_user(), 'read')}")
    assert grant is not None
    handle = limits.acquire_stream(grant)
    StreamLease.objects.filter(pk=handle.lease_id).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    limits.acquire_stream(grant)  # the dead stream's place is free again
