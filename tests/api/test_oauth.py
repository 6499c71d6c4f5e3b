"""OAuth 2 for third-party apps: the authorization code with PKCE (S256 only), its access
token good for the API with the scopes granted."""

from __future__ import annotations

import base64
import hashlib
import secrets
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from oauth2_provider.models import Application

pytestmark = pytest.mark.django_db

REDIRECT = "https://127.0.0.1:8765/callback"


def _pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    return verifier, challenge.rstrip(b"=").decode()


def _app(owner):  # type: ignore[no-untyped-def]
    return Application.objects.create(
        name="Thống kê",
        user=owner,
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=REDIRECT,
    )


def _signed_in(user):  # type: ignore[no-untyped-def]
    """The player's browser, signed in to the site."""
    browser = Client()
    browser.force_login(user)
    return browser


def _authorize(
    app, challenge: str, scope: str, method: str = "S256", **state: str
) -> dict[str, str]:
    """The authorize request the app sends the player's browser with."""
    return {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": REDIRECT,
        "scope": scope,
        **state,
        "code_challenge": challenge,
        "code_challenge_method": method,
    }


def _exchange(app, code: str, verifier: str):  # type: ignore[no-untyped-def]
    """The app trades an authorization code and its PKCE verifier for tokens."""
    return Client().post(
        "/api/oauth/token/",
        {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": app.client_id,
            "code_verifier": verifier,
        },
    )


def test_the_authorization_code_flow_with_pkce_gives_a_token_the_api_takes(
    make_user, api_client
) -> None:
    user = make_user("an")
    app = _app(user)
    verifier, challenge = _pkce()
    browser = _signed_in(user)
    query = _authorize(app, challenge, "read play", state="s1")
    consent = browser.get("/api/oauth/authorize/", query)
    assert consent.status_code == 200
    assert "form-action" in consent["Content-Security-Policy"]
    answer = browser.post("/api/oauth/authorize/", {**query, "allow": "Authorize"})
    assert answer.status_code == 302
    location = urlparse(answer["Location"])
    params = parse_qs(location.query)
    assert params["state"] == ["s1"]

    token = _exchange(app, params["code"][0], verifier)

    assert token.status_code == 200, token.content
    body = token.json()
    assert body["token_type"] == "Bearer" and set(body["scope"].split()) == {"read", "play"}
    me = api_client(body["access_token"]).get("/account")
    assert me.status_code == 200 and me.json()["username"] == "an"
    assert set(me.json()["scopes"]) == {"read", "play"}


def test_a_code_without_the_right_verifier_gets_no_token(make_user) -> None:
    user = make_user("an")
    app = _app(user)
    _verifier, challenge = _pkce()
    browser = _signed_in(user)
    query = _authorize(app, challenge, "read")
    answer = browser.post("/api/oauth/authorize/", {**query, "allow": "Authorize"})
    code = parse_qs(urlparse(answer["Location"]).query)["code"][0]
    token = _exchange(app, code, secrets.token_urlsafe(48))
    assert token.status_code == 400


def test_the_plain_pkce_method_is_refused(make_user) -> None:
    user = make_user("an")
    app = _app(user)
    browser = _signed_in(user)
    verifier = secrets.token_urlsafe(48)
    query = _authorize(app, verifier, "read", "plain")
    answer = browser.post("/api/oauth/authorize/", {**query, "allow": "Authorize"})
    # No code is issued: back to the app with an error, or an error page.
    if answer.status_code == 302:
        params = parse_qs(urlparse(answer["Location"]).query)
        assert "code" not in params and params["error"] == ["invalid_request"]
    else:
        assert b"authorizationForm" not in answer.content


def _tokens(user, app):  # type: ignore[no-untyped-def]
    """The token answer of one full authorization-code flow."""
    verifier, challenge = _pkce()
    browser = _signed_in(user)
    query = _authorize(app, challenge, "read", state="s")
    answer = browser.post("/api/oauth/authorize/", {**query, "allow": "Authorize"})
    params = parse_qs(urlparse(answer["Location"]).query)
    assert params["iss"], "the authorization response names its issuer (RFC 9207)"
    token = _exchange(app, params["code"][0], verifier)
    assert token.status_code == 200, token.content
    return token.json()


def test_the_server_keeps_only_checksums_of_oauth_tokens(make_user, api_client) -> None:
    from oauth2_provider.models import AccessToken, RefreshToken

    user = make_user("an")
    body = _tokens(user, _app(user))

    stored = AccessToken.objects.get(user=user)
    assert stored.token != body["access_token"]
    assert body["access_token"] not in {t.token for t in RefreshToken.objects.all()}
    assert body["refresh_token"] not in {t.token for t in RefreshToken.objects.all()}
    assert api_client(body["access_token"]).get("/account").status_code == 200


def test_a_refresh_token_used_twice_revokes_every_token_of_its_family(
    make_user, api_client
) -> None:
    user = make_user("an")
    app = _app(user)
    first = _tokens(user, app)

    def refresh(token: str):  # type: ignore[no-untyped-def]
        return Client().post(
            "/api/oauth/token/",
            {"grant_type": "refresh_token", "refresh_token": token, "client_id": app.client_id},
        )

    second = refresh(first["refresh_token"])
    assert second.status_code == 200, second.content
    assert api_client(second.json()["access_token"]).get("/account").status_code == 200

    replay = refresh(first["refresh_token"])  # a stolen copy of the first refresh token

    assert replay.status_code == 400
    assert api_client(second.json()["access_token"]).get("/account").status_code == 401
    assert refresh(second.json()["refresh_token"]).status_code == 400


def test_an_access_token_in_the_query_string_is_not_accepted(make_user) -> None:
    user = make_user("an")
    body = _tokens(user, _app(user))

    answer = Client().get("/api/account", {"access_token": body["access_token"]})

    assert answer.status_code == 401


def test_an_app_cannot_register_a_plain_http_redirect_uri(make_user) -> None:
    from django.core.exceptions import ValidationError

    app = Application(
        name="Không an toàn",
        user=make_user("an"),
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://example.com/callback",
    )
    with pytest.raises(ValidationError):
        app.full_clean()
