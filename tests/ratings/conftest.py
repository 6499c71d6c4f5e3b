"""The games tests' players, table and reproducible deals, reused."""

from tests.games.conftest import players, reproducible_deals, table

__all__ = ["players", "reproducible_deals", "table"]
