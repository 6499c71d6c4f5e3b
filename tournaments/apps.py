from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games import stakes
        from games.models import StakesIn
        from games.signals import sit_requested
        from tournaments import receivers, services

        # A tournament table's rounds are played for chips (games.stakes).
        stakes.register(StakesIn.CHIPS, services.ChipStakes())
        sit_requested.connect(receivers.on_sit_requested, dispatch_uid="tournaments.sit")
