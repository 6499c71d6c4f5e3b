from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from api import services
from api.models import Scope

ALL = list(Scope.values)


@pytest.fixture(autouse=True)
def _fresh_limits() -> None:
    """Each test counts its requests from zero (the limits live in the cache)."""
    cache.clear()


@pytest.fixture
def token_for() -> Callable[..., str]:
    def make(user: Any, *scopes: str) -> str:
        return services.create_token(user, name="test", scopes=scopes or ALL).secret

    return make


class ApiClient:
    """Django's test client speaking JSON with a bearer token."""

    def __init__(self, token: str | None, language: str = "en") -> None:
        self.client = Client()
        self.headers = {"HTTP_ACCEPT_LANGUAGE": language}
        if token is not None:
            self.headers["HTTP_AUTHORIZATION"] = f"Bearer {token}"

    def get(self, path: str, **params: Any) -> Any:
        return self.client.get(f"/api{path}", params, **self.headers)

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(
            f"/api{path}", body or {}, content_type="application/json", **self.headers
        )


@pytest.fixture
def api_client() -> Callable[..., ApiClient]:
    return ApiClient


# The games' players, table and seeded deals, for the tests that play rounds.
from tests.games.conftest import (  # noqa: E402, F401
    players,
    reproducible_deals,
    table,
)
