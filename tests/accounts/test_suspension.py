from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts import services
from accounts.errors import AccountError, SeatRefused

pytestmark = pytest.mark.django_db


def test_a_suspended_player_cannot_sit_and_is_told_why(make_user):
    user = make_user("an")
    services.suspend_user(user, until=timezone.now() + timedelta(days=1), reason="gian lận")
    user.refresh_from_db()
    with pytest.raises(SeatRefused) as refused:
        services.ensure_can_sit(user)
    assert refused.value.code == "suspended"
    assert "gian lận" in str(refused.value.message)


def test_a_suspended_player_can_still_log_in_and_see_the_reason(client, make_user, password):
    user = make_user("an")
    services.suspend_user(user, until=timezone.now() + timedelta(days=1), reason="gian lận")
    response = client.post(reverse("accounts:login"), {"username": "an", "password": password})
    assert response.status_code == 302
    assert "gian lận" in client.get(reverse("home")).content.decode()


def test_an_expired_or_lifted_suspension_lets_the_player_sit(make_user):
    user = make_user("an")
    services.ensure_can_sit(user)
    services.suspend_user(user, until=timezone.now() + timedelta(hours=1), reason="spam")
    user = services.lift_suspension(user)
    services.ensure_can_sit(user)


def test_a_suspension_needs_a_reason_and_a_future_end(make_user):
    user = make_user("an")
    with pytest.raises(AccountError):
        services.suspend_user(user, until=timezone.now() + timedelta(hours=1), reason=" ")
    with pytest.raises(AccountError):
        services.suspend_user(user, until=timezone.now() - timedelta(hours=1), reason="x")
