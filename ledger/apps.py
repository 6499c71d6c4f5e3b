from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = _("Xu ledger")

    def ready(self) -> None:
        from accounts.services import user_signed_up
        from ledger import receivers

        # Runs inside the sign-up transaction: no account without its grant, and no
        # grant without its account.
        user_signed_up.connect(receivers.grant_on_sign_up, dispatch_uid="ledger.signup_grant")
