"""The account's API tokens page: create (shown once), list, revoke."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from api.auth import authenticate_bearer
from api.models import PersonalToken

pytestmark = pytest.mark.django_db


def test_a_token_made_on_the_page_is_shown_once_listed_and_revoked(make_user) -> None:
    user = make_user("an")
    browser = Client()
    browser.force_login(user)

    made = browser.post(
        "/api/tokens/", {"name": "Bot của tôi", "scopes": ["read", "play"], "expires": "30"}
    )

    assert made.status_code == 200
    secret = re.search(r'data-testid="new-token">(mbp_[^<]+)<', made.content.decode()).group(1)
    grant = authenticate_bearer(f"Bearer {secret}")
    assert grant is not None and grant.scopes == frozenset({"read", "play"})
    row = PersonalToken.objects.get(user=user)
    assert row.expires_at is not None
    listed = browser.get("/api/tokens/").content.decode()
    assert "Bot của tôi" in listed and secret not in listed  # shown once only
    browser.post(f"/api/tokens/{row.pk}/revoke/", {"kind": "pat"})
    assert authenticate_bearer(f"Bearer {secret}") is None


def test_nobody_revokes_someone_elses_token(make_user, token_for) -> None:
    owner, other = make_user("an"), make_user("binh")
    secret = token_for(owner, "read")
    browser = Client()
    browser.force_login(other)
    browser.post(f"/api/tokens/{PersonalToken.objects.get(user=owner).pk}/revoke/")
    assert authenticate_bearer(f"Bearer {secret}") is not None


def test_the_tokens_page_needs_a_login() -> None:
    response = Client().get("/api/tokens/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
