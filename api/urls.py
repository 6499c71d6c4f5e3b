"""The API at /api/: the operations (api.core), the OAuth 2 endpoints and the token page.

The NDJSON streams are operations too: their router is ``api.streams.router``, added in
``api.core`` (register new stream operations on it, not here).
"""

from django.urls import include, path
from oauth2_provider import views as oauth_views

from api import oauth, views
from api.core import api

urlpatterns = [
    # OAuth 2: the authorization code (our consent page), the token and its revocation.
    # Apps are registered by the staff in the admin; DOT's other views are not served.
    path(
        "oauth/",
        include(
            (
                [
                    path("authorize/", oauth.AuthorizationView.as_view(), name="authorize"),
                    path("token/", oauth_views.TokenView.as_view(), name="token"),
                    path(
                        "revoke_token/",
                        oauth_views.RevokeTokenView.as_view(),
                        name="revoke-token",
                    ),
                ],
                "oauth2_provider",
            )
        ),
    ),
    path("tokens/", views.tokens, name="api_tokens"),
    path("tokens/<id:token_id>/revoke/", views.revoke, name="api_token_revoke"),
    path("", api.urls),
]
