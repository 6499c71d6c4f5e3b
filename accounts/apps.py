from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.urls import register_converter

        from accounts import roles
        from accounts.ids import IdConverter

        roles.connect_signals()
        # ``<id:...>`` in every urls.py and websocket route (accounts.ids), registered
        # before any URLconf is imported.
        register_converter(IdConverter, "id")
