import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_pages_are_vietnamese_by_default(client):
    html = client.get(reverse("accounts:login")).content.decode()
    assert "Đăng nhập" in html
    assert "Log in" not in html


def test_the_switch_turns_a_visitor_to_english(client):
    response = client.post(
        reverse("accounts:set_language"), {"language": "en", "next": reverse("accounts:login")}
    )
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert '<html lang="en">' in html
    assert "Log in" in html
    assert "Đăng nhập" not in html


def test_the_switch_is_remembered_on_the_account(client, make_user):
    user = make_user("an")
    client.force_login(user)
    client.post(reverse("accounts:set_language"), {"language": "en"})
    user.refresh_from_db()
    assert user.preferred_language == "en"
    other_browser = client.__class__()
    other_browser.force_login(user)
    assert "Log out" in other_browser.get(reverse("home")).content.decode()


def test_an_unknown_language_is_refused_politely(client):
    response = client.post(reverse("accounts:set_language"), {"language": "xx"}, follow=True)
    assert "Ngôn ngữ không được hỗ trợ." in response.content.decode()


def test_the_switch_never_redirects_off_site(client):
    response = client.post(
        reverse("accounts:set_language"), {"language": "en", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"
