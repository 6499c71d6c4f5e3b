"""Table talk is deleted after CHAT_RETENTION_DAYS, except what an open case carries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from chat import services
from chat.models import ChatMessage
from moderation import services as moderation

pytestmark = pytest.mark.django_db


def _age(message: ChatMessage, days: int) -> None:
    ChatMessage.objects.filter(pk=message.pk).update(
        created_at=timezone.now() - timedelta(days=days)
    )


@override_settings(CHAT_RETENTION_DAYS=7)
def test_messages_past_the_retention_are_deleted_and_recent_ones_kept(players, table) -> None:
    old, recent = (services.post_message(players[1], table.pk, text=t) for t in ("cũ", "mới"))
    _age(old, 8)
    _age(recent, 6)
    assert services.delete_expired() == 1
    assert list(ChatMessage.objects.values_list("pk", flat=True)) == [recent.pk]


@override_settings(CHAT_RETENTION_DAYS=7)
def test_messages_an_open_case_carries_stay_until_it_is_resolved(players, table, moderator) -> None:
    context = services.post_message(players[0], table.pk, text="trước")
    bad = services.post_message(players[1], table.pk, text="xấu")
    case_id = services.report_message(players[0], table.pk, bad.pk, "")
    for message in (context, bad):
        _age(message, 30)
    assert services.delete_expired() == 0
    moderation.claim(moderator, case_id)
    moderation.resolve(moderator, case_id, outcome="upheld", resolution="Đã nhắc nhở.")
    assert services.delete_expired() == 2
    assert not ChatMessage.objects.exists()
