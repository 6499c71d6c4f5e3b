"""Friend requests and table invitations: a limit per sender and rolling hour, refused with
the time to try again; repeated notices from one sender coalesce into one unread one."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import override_settings
from django.utils import timezone, translation

from games import services as games
from notices import services as notices
from notices.models import NotificationKind
from social import selectors, services
from social.errors import SocialError
from social.models import FriendRequest, Sent
from tests.support.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

NOON = datetime(2026, 12, 1, 12, 0, 20, tzinfo=ZoneInfo("Asia/Ho_Chi_Minh"))


@pytest.fixture
def clock(monkeypatch):  # type: ignore[no-untyped-def]
    """``timezone.now`` pinned, and moved on by ``clock.move(minutes=...)``."""

    class Clock:
        now = NOON

        def move(self, **delta: float) -> None:
            self.now += timedelta(**delta)

    pinned = Clock()
    monkeypatch.setattr(timezone, "now", lambda: pinned.now)
    return pinned


def _befriend_and_cancel(sender, receiver) -> bool:  # type: ignore[no-untyped-def]
    """One befriend/cancel cycle; False when the request was refused for the limit."""
    try:
        services.send_friend_request(sender, receiver)
    except SocialError as refused:
        if refused.code != "rate_limited":
            raise
        return False
    services.cancel_friend_request(sender, receiver)
    return True


@override_settings(SOCIAL_REQUESTS_PER_HOUR=20)
def test_sixty_befriend_and_cancel_cycles_leave_one_unread_notice_and_hit_the_limit(
    people, clock
) -> None:
    harasser, victim, _chi = people
    sent = [_befriend_and_cancel(harasser, victim) for _ in range(60)]
    assert sent == [True] * 20 + [False] * 40
    assert selectors.unread_count(victim) == 1
    assert victim.notifications.count() == 1


@override_settings(SOCIAL_REQUESTS_PER_HOUR=3)
def test_the_refusal_says_when_to_try_again_and_the_window_rolls(people, clock) -> None:
    an, binh, chi = people
    for _ in range(2):
        assert _befriend_and_cancel(an, binh)
    clock.move(minutes=20)
    assert _befriend_and_cancel(an, chi)  # the third, 20 minutes later: the limit is met
    with pytest.raises(SocialError) as refused:
        services.send_friend_request(an, binh)
    # The first two leave the hour at 13:00:20: one more may go from 13:01.
    with translation.override("en"):
        english = refused.value.message
    assert english == (
        "You have sent 3 friend requests in the last hour, the most allowed. Try again at 13:01."
    )
    with translation.override("vi"):
        assert refused.value.message.startswith("Bạn đã gửi 3 lời mời kết bạn")
        assert refused.value.message.endswith("Hãy thử lại lúc 13:01.")
    assert not FriendRequest.objects.filter(from_user=an, to_user=binh).exists()
    clock.move(minutes=41)
    assert _befriend_and_cancel(an, binh)  # 13:01:20: the first two have left the hour
    assert Sent.objects.filter(sender=an).count() == 2  # older ones are forgotten


@override_settings(SOCIAL_REQUESTS_PER_HOUR=1)
def test_a_request_refused_for_the_limit_leaves_nothing_behind(people, clock) -> None:
    an, binh, chi = people
    services.send_friend_request(an, binh)
    with pytest.raises(SocialError):
        services.send_friend_request(an, chi)
    assert not FriendRequest.objects.filter(to_user=chi).exists()
    assert selectors.unread_count(chi) == 0


@override_settings(SOCIAL_INVITES_PER_HOUR=2)
def test_table_invitations_have_their_own_limit(people, clock) -> None:
    an, binh, chi = people
    for friend in (binh, chi):
        services.accept_friend_request(friend, services.send_friend_request(an, friend).pk)
    games.open_table(an, name="Bàn An", stake=10)
    services.invite_to_table(an, binh)
    services.invite_to_table(an, chi)
    with pytest.raises(SocialError) as refused:
        services.invite_to_table(an, binh)
    assert refused.value.code == "rate_limited"
    with translation.override("en"):
        assert "2 table invitations in the last hour" in refused.value.message
    clock.move(hours=1)
    assert services.invite_to_table(an, binh).kind == NotificationKind.TABLE_INVITE


def test_invitations_to_two_tables_before_the_first_is_read_are_one_notice(people) -> None:
    an, binh, _chi = people
    services.accept_friend_request(binh, services.send_friend_request(an, binh).pk)
    first = games.open_table(an, name="Bàn một", stake=10)
    services.invite_to_table(an, binh)
    games.stand(an)
    games.open_table(an, name="Bàn hai", stake=10)
    note = services.invite_to_table(an, binh)
    unread = selectors.notifications_of(binh).filter(read_at__isnull=True)
    assert list(unread.filter(kind=NotificationKind.TABLE_INVITE)) == [note]
    assert note.table_name == "Bàn hai"  # the newest invitation is the one shown
    assert str(first.pk) not in note.url


def test_a_notice_read_before_the_next_one_comes_is_kept_as_read(people) -> None:
    an, binh, _chi = people
    services.send_friend_request(an, binh)
    notices.mark_notifications_read(binh)
    services.cancel_friend_request(an, binh)
    services.send_friend_request(an, binh)
    assert selectors.unread_count(binh) == 1
    assert binh.notifications.count() == 2


@pytest.mark.django_db(transaction=True)
@override_settings(SOCIAL_REQUESTS_PER_HOUR=1)
def test_two_requests_at_once_at_the_limit_let_one_through(people) -> None:
    an, binh, chi = people
    results = race(
        lambda: services.send_friend_request(an, binh),
        lambda: services.send_friend_request(an, chi),
        refusals=(SocialError,),
    )
    refused = [r for r in results if isinstance(r, SocialError)]
    assert [r.code for r in refused] == ["rate_limited"]
    assert FriendRequest.objects.filter(from_user=an).count() == 1
    assert Sent.objects.filter(sender=an).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_from_one_sender_leave_one_unread_notice(people) -> None:
    an, binh, _chi = people
    for _ in range(5):
        race(
            lambda: _befriend_and_cancel(an, binh),
            lambda: _befriend_and_cancel(an, binh),
            refusals=(SocialError,),
        )
    assert selectors.unread_count(binh) == 1
