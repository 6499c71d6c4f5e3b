import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_player_logs_in_and_out(client, make_user, password):
    user = make_user("an")
    response = client.post(reverse("accounts:login"), {"username": "an", "password": password})
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == user
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_a_wrong_password_shows_an_error_not_a_crash(client, make_user):
    make_user("an")
    response = client.post(reverse("accounts:login"), {"username": "an", "password": "nope"})
    assert response.status_code == 200
    assert "mật khẩu chính xác" in response.content.decode()


def test_repeated_failed_logins_are_throttled_even_with_the_right_password(
    client, make_user, password, settings
):
    make_user("an")
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("accounts:login"), {"username": "an", "password": "wrong"})
    response = client.post(reverse("accounts:login"), {"username": "an", "password": password})
    assert response.status_code == 429
    assert "Tạm thời không thể đăng nhập" in response.content.decode()
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_throttling_one_username_leaves_others_free(client, make_user, password, settings):
    make_user("an")
    make_user("binh")
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("accounts:login"), {"username": "an", "password": "wrong"})
    response = client.post(reverse("accounts:login"), {"username": "binh", "password": password})
    assert response.status_code == 302


def test_a_bot_account_cannot_log_in_even_with_a_password_set(client, make_user, password):
    bot = make_user("bot-x")
    bot.is_bot = True
    bot.save(update_fields=["is_bot"])
    response = client.post(reverse("accounts:login"), {"username": "bot-x", "password": password})
    assert response.status_code == 200
    assert not client.get(reverse("home")).context["user"].is_authenticated
