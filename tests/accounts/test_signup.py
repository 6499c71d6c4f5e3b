import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_a_visitor_signs_up_and_is_logged_in(client, password):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "lan",
            "display_name": "Lan",
            "email": "",
            "password1": password,
            "password2": password,
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="lan")
    assert user.display_name == "Lan"
    assert user.preferred_language == "vi"
    assert client.get(reverse("home")).context["user"] == user


def test_sign_up_refuses_mismatched_passwords_in_vietnamese(client, password):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "lan", "password1": password, "password2": password + "x"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="lan").exists()
    assert "Hai trường mật khẩu không giống nhau" in response.content.decode()


def test_sign_up_refuses_a_taken_username(client, make_user, password):
    make_user("lan")
    response = client.post(
        reverse("accounts:signup"),
        {"username": "lan", "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert User.objects.filter(username="lan").count() == 1


def test_sign_up_page_renders_in_vietnamese_by_default(client):
    response = client.get(reverse("accounts:signup"), HTTP_ACCEPT_LANGUAGE="en-US,en")
    html = response.content.decode()
    assert '<html lang="vi">' in html
    assert "Tạo tài khoản" in html


def test_sign_up_says_how_many_xu_were_granted(client, password):
    page = client.get(reverse("accounts:signup")).content.decode()
    assert "Bạn nhận 10.000 xu khi đăng ký" in page
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "lan",
            "display_name": "Lan & Co",
            "password1": password,
            "password2": password,
        },
        follow=True,
    )
    messages = [str(m) for m in response.context["messages"]]
    assert messages == ["Chào mừng Lan & Co! Bạn đã nhận 10.000 xu để bắt đầu chơi."]
    assert "Lan &amp; Co" in response.content.decode()  # escaped once, on display
