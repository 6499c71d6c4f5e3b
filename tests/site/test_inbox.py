"""One inbox (maubinh_site/inbox.py): every notice (moderation's and social's) in one list, newest
first, one unread count (the header's, kept live by the JSON answer), one "mark as read"."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from notices.models import Notification, NotificationKind
from social import services as social

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):  # type: ignore[no-untyped-def]
    return make_user("an", display_name="An"), make_user("binh", display_name="Bình")


def test_the_inbox_lists_both_kinds_newest_first_and_counts_them(client: Client, people) -> None:  # type: ignore[no-untyped-def]
    an, binh = people
    notice = Notification.objects.create(
        user=binh, kind=NotificationKind.SUSPENSION_LIFTED, params={}
    )
    Notification.objects.filter(pk=notice.pk).update(created_at=timezone.now() - timedelta(hours=1))
    social.send_friend_request(an, binh)
    client.force_login(binh)
    page = client.get(reverse("inbox"))
    keys = [item.key for item in page.context["items"]]
    assert keys[0].startswith("social:") and keys[1] == f"moderation:{notice.pk}"
    html = page.content.decode()
    assert 'data-testid="inbox-unread" data-inbox-count>2<' in html
    assert client.get(reverse("inbox_unread")).json()["unread"] == 2


def test_marking_the_inbox_read_marks_both(client: Client, people) -> None:  # type: ignore[no-untyped-def]
    an, binh = people
    Notification.objects.create(user=binh, kind=NotificationKind.SUSPENSION_LIFTED)
    social.send_friend_request(an, binh)
    client.force_login(binh)
    assert client.post(reverse("inbox")).status_code == 302
    answer: dict[str, Any] = client.get(reverse("inbox_unread")).json()
    assert (answer["unread"], answer["latest"]) == (0, None)
    assert not Notification.objects.filter(read_at__isnull=True).exists()


def test_an_answered_friend_request_no_longer_offers_an_answer(client: Client, people) -> None:  # type: ignore[no-untyped-def]
    an, binh = people
    request = social.send_friend_request(an, binh)
    client.force_login(binh)
    assert "Trả lời" in client.get(reverse("inbox")).content.decode()
    social.accept_friend_request(binh, request.pk)
    assert "Trả lời" not in client.get(reverse("inbox")).content.decode()


def test_the_live_count_names_the_newest_unread_notice(client: Client, people) -> None:  # type: ignore[no-untyped-def]
    an, binh = people
    social.send_friend_request(an, binh)
    client.force_login(binh)
    latest = client.get(reverse("inbox_unread")).json()["latest"]
    assert latest["key"].startswith("social:") and "An" in latest["message"]
    assert latest["url"] == reverse("social:friends")


def test_the_inbox_needs_a_login(client: Client) -> None:
    assert client.get(reverse("inbox_unread")).status_code == 302


@pytest.mark.parametrize("old", ["moderation:notifications", "social:notifications"])
def test_the_old_notice_pages_move_permanently_to_the_inbox_keeping_a_post(
    client: Client,
    people,
    old: str,  # type: ignore[no-untyped-def]
) -> None:
    client.force_login(people[1])
    for answer in (client.get(reverse(old)), client.post(reverse(old))):
        assert (answer.status_code, answer["Location"]) == (308, reverse("inbox"))
