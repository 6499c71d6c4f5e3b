from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _
from oauth2_provider.apps import DOTConfig


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = _("Open API")


class OAuthProviderConfig(DOTConfig):  # type: ignore[misc]  # the library is untyped
    """django-oauth-toolkit under this site's own name: its admin section reads
    "Ứng dụng OAuth", not the library's name."""

    verbose_name = _("OAuth applications")
