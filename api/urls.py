"""The API at /api/: the operations (api.core), the OAuth 2 endpoints and the token page.

The NDJSON streams are operations too: their router is ``api.streams.router``, added in
``api.core`` (register new stream operations on it, not here).
"""

from django.urls import include, path

from api import oauth, views
from api.core import api

urlpatterns = [
    path("oauth/authorize/", oauth.AuthorizationView.as_view(), name="api_oauth_authorize"),
    path("oauth/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("tokens/", views.tokens, name="api_tokens"),
    path("tokens/<id:token_id>/revoke/", views.revoke, name="api_token_revoke"),
    path("", api.urls),
]
