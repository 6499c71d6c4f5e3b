"""The staff audit log, on the moderation pages and in the admin: values in words, not dicts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from moderation import services
from moderation.models import StaffAction

pytestmark = pytest.mark.django_db


@pytest.fixture
def audited(players: list[Any], settled_round: Any, moderator: Any) -> StaffAction:
    case = services.file_dispute(players[0], settled_round.pk, category="wrong_result", text="")
    services.claim(moderator, case.pk)
    services.compensate(moderator, case.pk, amount="1500", reason="Lag at the showdown")
    return StaffAction.objects.get(action="claim")


def _cells(html: str) -> str:
    table = html[html.index('data-testid="audit"') :]
    return re.sub(r"<[^>]+>", " ", table[: table.index("</table>")])


def test_the_audit_log_shows_states_in_words(client: Client, admin: Any, audited: Any) -> None:
    client.force_login(admin)
    text = _cells(client.get(reverse("moderation:audit_log")).text)
    assert "{" not in text and "'" not in text and "None" not in text
    assert "trạng thái : Mở" in re.sub(r"\s+", " ", text)  # the claim's "before"
    assert "1.500" in text  # the compensation's amount, grouped


def test_the_admin_shows_an_audited_action_in_words(
    client: Client, admin: Any, audited: Any
) -> None:
    client.force_login(admin)
    html = client.get(reverse("admin:moderation_staffaction_change", args=[audited.pk])).text
    assert 'class="audit-values"' in html
    assert "{&#x27;status&#x27;" not in html and "{'status'" not in html
