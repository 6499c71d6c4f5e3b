import re

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_player_changes_their_password(client, make_user, password):
    user = make_user("an")
    client.force_login(user)
    new = "another-Passw0rd!"
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": password, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_changing_the_password_needs_the_old_one(client, make_user):
    user = make_user("an")
    client.force_login(user)
    new = "another-Passw0rd!"
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": "wrong", "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert not user.check_password(new)


def test_a_player_resets_a_forgotten_password_by_email(client, make_user):
    user = make_user("an", email="an@example.com")
    response = client.post(reverse("accounts:password_reset"), {"email": "an@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(\S+)", mail.outbox[0].body)
    assert link is not None
    form_page = client.get(link.group(1), follow=True)
    new = "reset-Passw0rd!"
    response = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)
