from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from games.signals import round_rating
        from ratings import services

        round_rating.connect(services.on_round_rating, dispatch_uid="ratings.round_rating")
