"""The OAuth 2 consent page (django-oauth-toolkit's, in the site's frame)."""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_update
from django.utils.decorators import method_decorator
from oauth2_provider import views


# The consent form's answer redirects to the app's redirect URI, on another origin: the
# site's ``form-action 'self'`` would make a browser stop that redirect.
@method_decorator(csp_update({"form-action": ["'self'", "https:", "http:"]}), name="dispatch")
class AuthorizationView(views.AuthorizationView):  # type: ignore[misc]
    template_name = "api/authorize.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return super().get_context_data(**kwargs)  # type: ignore[no-any-return]
