from __future__ import annotations

import pytest

from social import services


@pytest.fixture
def people(make_user):  # type: ignore[no-untyped-def]
    return [make_user(name) for name in ("an", "binh", "chi")]


@pytest.fixture
def friends(people):  # type: ignore[no-untyped-def]
    an, binh, chi = people
    services.accept_friend_request(binh, services.send_friend_request(an, binh).pk)
    return an, binh, chi
