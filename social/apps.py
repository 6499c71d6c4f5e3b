from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = _("Friends and private tables")

    def ready(self) -> None:
        from social import receivers

        # A block keeps two people apart at the tables (docs/social.md).
        receivers.connect()
