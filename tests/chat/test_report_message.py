"""Reporting a message: a moderation case carrying it and the talk around it."""

from __future__ import annotations

import pytest
from django.test import override_settings

from chat import services
from chat.errors import ChatError
from moderation.models import Category, Dispute, Status
from moderation.selectors import queue

pytestmark = pytest.mark.django_db


@override_settings(CHAT_RATE_LIMIT=100)
def test_a_reported_message_becomes_a_case_with_its_context(players, table) -> None:
    said = [services.post_message(players[n % 2], table.pk, text=f"câu {n}") for n in range(14)]
    bad = services.post_message(players[1], table.pk, text="đồ ngốc")
    after = services.post_message(players[0], table.pk, text="bình tĩnh")
    case_id = services.report_message(players[0], table.pk, bad.pk, "chửi tôi")
    case = Dispute.objects.get(pk=case_id)
    assert (case.kind, case.category, case.reported_user_id) == (
        "report",
        Category.CHAT,
        players[1].pk,
    )
    lines = case.evidence["chat"]["lines"]
    assert [line["id"] for line in lines] == [m.pk for m in said[-10:]] + [bad.pk, after.pk]
    assert [line["reported"] for line in lines].count(True) == 1
    assert case in queue()


def test_nobody_reports_their_own_message_or_one_twice(players, table) -> None:
    message = services.post_message(players[1], table.pk, text="hello")
    with pytest.raises(ChatError):
        services.report_message(players[1], table.pk, message.pk)
    services.report_message(players[0], table.pk, message.pk)
    with pytest.raises(ChatError) as again:
        services.report_message(players[0], table.pk, message.pk)
    assert again.value.code == "chat_already_reported"
    assert Dispute.objects.filter(status=Status.OPEN).count() == 1
