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
