from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from accounts import services as accounts

pytestmark = pytest.mark.django_db


def test_the_moderation_pages_speak_vietnamese_by_default_and_english_on_request(
    client: Any, moderator: Any
) -> None:
    client.force_login(moderator)
    assert "Hàng chờ điều hành" in client.get(reverse("moderation:queue")).content.decode()
    accounts.set_preferred_language(moderator, "en")
    assert "Moderation queue" in client.get(reverse("moderation:queue")).content.decode()
