"""The moderation queue in words: a case's age in the reader's language."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from moderation import services
from moderation.models import Dispute

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "age", "shown"),
    [
        ("vi", timedelta(seconds=20), "0 phút"),
        ("vi", timedelta(minutes=1), "1 phút"),
        ("vi", timedelta(hours=5), "5 giờ"),
        ("en", timedelta(seconds=20), "0 minutes"),
        ("en", timedelta(minutes=1), "1 minute"),
        ("en", timedelta(days=2, hours=3), "2 days"),
    ],
)
def test_a_cases_age_is_written_in_the_readers_language(
    client: Client,
    players: list[Any],
    settled_round: Any,
    moderator: Any,
    language: str,
    age: timedelta,
    shown: str,
) -> None:
    case = services.file_dispute(players[0], settled_round.pk, category="wrong_result", text="")
    Dispute.objects.filter(pk=case.pk).update(created_at=timezone.now() - age)
    moderator.preferred_language = language
    moderator.save(update_fields=["preferred_language"])
    client.force_login(moderator)
    html = client.get(reverse("moderation:queue")).text
    assert f">{shown}</td>" in html
