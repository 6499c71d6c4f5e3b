from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def player(make_user: Any) -> Any:
    """A signed-up player: 10,000 xu from the sign-up grant."""
    return make_user("an")


@pytest.fixture
def other_player(make_user: Any) -> Any:
    return make_user("binh")


@pytest.fixture
def third_player(make_user: Any) -> Any:
    return make_user("chi")


@pytest.fixture
def staff(make_user: Any) -> Any:
    user = make_user("thu_quy")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


@pytest.fixture
def admin_user(make_user: Any) -> Any:
    user = make_user("quan_tri")
    user.is_staff = True
    user.is_superuser = True
    user.save(update_fields=["is_staff", "is_superuser"])
    return user


@pytest.fixture
def english() -> Any:
    """Messages in English, for tests that read a message's wording."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture(params=["database function", "python"])
def write_path_both(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test once through the PostgreSQL function and once through the Python path."""
    from ledger.services import posting

    monkeypatch.setattr(posting, "USE_DATABASE_FUNCTION", request.param != "python")
    return str(request.param)
