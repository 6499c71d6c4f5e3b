from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english_messages() -> Any:
    """These tests match the English text of errors; players read them in their language."""
    with translation.override("en"):
        yield


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
