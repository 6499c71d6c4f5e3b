from __future__ import annotations

import pytest

from tests.services import CHROMIUM_MISSING, CI, POSTGRES_MISSING, REDIS_MISSING

_MISSING = {"postgres": POSTGRES_MISSING, "redis": REDIS_MISSING, "browser": CHROMIUM_MISSING}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip (or, under CI, fail) tests whose service is absent, with a one-line reason."""
    for item in items:
        for marker, reason in _MISSING.items():
            if reason and item.get_closest_marker(marker):
                if CI:
                    item.add_marker(pytest.mark.usefixtures("_service_required_in_ci"))
                    item.user_properties.append(("missing", reason))
                else:
                    item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def _service_required_in_ci(request: pytest.FixtureRequest) -> None:
    reasons = [value for key, value in request.node.user_properties if key == "missing"]
    pytest.fail(f"CI=true but a required service is missing: {'; '.join(reasons)}")


@pytest.fixture
def password() -> str:
    return "a-long-Passw0rd!"


@pytest.fixture
def make_user(db: None, password: str):  # type: ignore[no-untyped-def]
    """Create a player through the sign-up service (so listeners like the ledger run)."""
    from accounts import services

    counter = {"n": 0}

    def make(username: str | None = None, **kwargs: object):  # type: ignore[no-untyped-def]
        counter["n"] += 1
        name = username or f"player{counter['n']}"
        return services.sign_up(username=name, password=password, **kwargs)  # type: ignore[arg-type]

    return make
