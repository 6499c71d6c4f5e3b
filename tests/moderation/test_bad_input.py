"""Hostile values the security review sent (issue 12): a message or ignored, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from moderation import services
from moderation.errors import ModerationError
from moderation.models import Compensation, Dispute, ModeratorLimit

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(admin: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(admin)
    return client


@pytest.mark.parametrize(
    "query",
    [
        "table=²",
        "user=²",
        "older_than_hours=²",
        "older_than_hours=999999999999",
        "older_than_hours=-3",
        "status=nonsense",
        "category=nonsense",
    ],
)
def test_a_queue_filter_that_means_nothing_is_ignored(staff_client: Client, query: str) -> None:
    assert staff_client.get(f"{reverse('moderation:queue')}?{query}").status_code == 200


def test_a_user_search_for_a_unicode_digit_finds_nobody(staff_client: Client) -> None:
    assert staff_client.get(f"{reverse('moderation:users')}?q=²").status_code == 200


@pytest.mark.parametrize("url", ["moderation:queue", "moderation:users", "moderation:audit_log"])
def test_a_nul_in_a_query_parameter_is_a_clear_400(staff_client: Client, url: str) -> None:
    response = staff_client.get(f"{reverse(url)}?status=%00&q=a%00&actor=%00")
    assert response.status_code == 400
    assert 'data-testid="bad-request"' in response.content.decode()


@pytest.mark.parametrize("query", ["round=²", "user=²", "round=99999999999999999999", "nonsense=1"])
@pytest.mark.parametrize(
    "url", ["admin:ledger_transfer_changelist", "admin:ledger_transfer_export"]
)
def test_the_ledger_admin_filters_never_fail(staff_client: Client, url: str, query: str) -> None:
    assert staff_client.get(f"{reverse(url)}?{query}").status_code in (200, 302)


def test_a_nul_in_a_posted_text_is_refused_before_anything_is_written(
    client: Client, players: list[Any], settled_round: Any
) -> None:
    client.force_login(players[0])
    url = reverse("moderation:file_dispute", args=[settled_round.pk])
    response = client.post(url, {"category": "other", "text": "bad\x00text"})
    assert response.status_code == 400
    assert not Dispute.objects.exists()


def test_the_services_refuse_a_nul_in_any_text(
    players: list[Any], settled_round: Any, moderator: Any
) -> None:
    attempts = [
        lambda: services.file_dispute(players[0], settled_round.pk, category="other", text="\x00"),
        lambda: services.report_player(
            players[0], players[1].pk, category="other", text="\x00", round_id=settled_round.pk
        ),
        lambda: services.suspend(moderator, players[0].pk, hours=1, reason="a\x00"),
    ]
    for attempt in attempts:
        with pytest.raises(ModerationError) as refused:
            attempt()
        assert refused.value.code == "bad_text"


def test_staff_money_texts_with_a_nul_are_refused_and_nothing_is_paid_or_set(
    players: list[Any], settled_round: Any, moderator: Any, admin: Any, settings: Any
) -> None:
    """The review's compensation, limit and reject texts: refused, nothing half-done."""
    settings.MODERATION_COMPENSATION_LIMIT_XU = 10
    case = services.file_dispute(players[0], settled_round.pk, category="other", text="?")
    services.claim(moderator, case.pk)
    attempts = [
        lambda: services.compensate(moderator, case.pk, amount=5, reason="bad\x00"),
        lambda: services.set_compensation_limit(
            admin, moderator.pk, per_payment=1, per_day=1, reason="bad\x00"
        ),
    ]
    for attempt in attempts:
        with pytest.raises(ModerationError) as refused:
            attempt()
        assert refused.value.code == "bad_text"
    assert not Compensation.objects.exists() and not ModeratorLimit.objects.exists()
    pending = services.compensate(moderator, case.pk, amount=50, reason="Lỗi chia bài")
    assert pending.status == "pending"
    with pytest.raises(ModerationError) as refused:
        services.reject_compensation(admin, pending.pk, reason="bad\x00")
    assert refused.value.code == "bad_text"
    pending.refresh_from_db()
    assert pending.status == "pending" and pending.decided_by is None
