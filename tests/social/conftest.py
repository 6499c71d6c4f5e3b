from __future__ import annotations

import pytest


@pytest.fixture
def people(make_user):  # type: ignore[no-untyped-def]
    return [make_user(name) for name in ("an", "binh", "chi")]
