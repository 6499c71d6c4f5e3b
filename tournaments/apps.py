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
        # Arenas (tournaments.arena): a board's points at its settlement, the players'
        # return to the queue after it, and no spectators at a board entrants may be dealt.
        from games.signals import round_settled, watch_requested
        from tournaments import arena, arena_tasks  # noqa: F401  (the arena's timers)

        stakes.on_points(arena.record_points)
        # Prizes held for review (ledger): the page hears of the hold and its decision.
        from ledger.signals import prize_hold_changed

        prize_hold_changed.connect(
            receivers.on_prize_hold_changed, dispatch_uid="tournaments.prize_hold"
        )
        round_settled.connect(arena.on_round_over, dispatch_uid="tournaments.arena_round_over")
        watch_requested.connect(arena.may_watch, dispatch_uid="tournaments.arena_watch")
