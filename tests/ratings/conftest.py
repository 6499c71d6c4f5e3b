"""The games tests' players, table and reproducible deals, reused; a fresh cache."""

from typing import Any

import pytest
from django.core.cache import cache

from tests.games.conftest import players, reproducible_deals, table

__all__ = ["players", "reproducible_deals", "table"]


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    """Boards are cached: each test starts with none (the database is rolled back)."""
    cache.clear()
    yield
    cache.clear()
