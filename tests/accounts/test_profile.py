import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_player_edits_display_name_and_language(client, make_user):
    user = make_user("an")
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile"), {"display_name": "  An Nguyễn ", "language": "en"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.display_name == "An Nguyễn"
    assert user.preferred_language == "en"


def test_the_profile_needs_a_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_the_profile_sets_the_language_cookie_with_the_switchs_flags(client, make_user):
    client.force_login(make_user("an"))
    from_profile = client.post(reverse("accounts:profile"), {"language": "en"}).cookies
    from_switch = client.post(reverse("accounts:set_language"), {"language": "en"}).cookies
    name = "django_language"
    flags = ("max-age", "samesite", "secure", "httponly", "path")
    assert {f: from_profile[name][f] for f in flags} == {f: from_switch[name][f] for f in flags}
    assert from_profile[name]["samesite"] == "Lax"
