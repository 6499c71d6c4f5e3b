from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Wire both kinds into the games, the ledger and what both share (which imports
        neither kind: docs/tournaments.md, For developers)."""
        from games import stakes
        from games.models import StakesIn
        from games.signals import round_settled, sit_requested, table_refused, watch_requested
        from ledger.signals import prize_hold_changed
        from tournaments import receivers, selectors
        from tournaments.arena import receivers as arena_receivers
        from tournaments.arena import selectors as arena_selectors
        from tournaments.arena import services as arena
        from tournaments.arena import tasks as arena_tasks  # noqa: F401  (its timers)
        from tournaments.models import Kind
        from tournaments.sitandgo import services as sitandgo
        from tournaments.sitandgo import tasks as sitandgo_tasks  # noqa: F401  (its timers)

        # The kinds' timers are imported above so a worker knows them by the names they
        # were registered under (``tournaments.fill_with_bots``, ``tournaments.arena_pair``,
        # ...); only ``tournaments.tasks`` (the sweeper's) is found by autodiscovery.
        # A sit-and-go table's rounds are played for chips (games.stakes).
        stakes.register(StakesIn.CHIPS, sitandgo.ChipStakes())
        sit_requested.connect(receivers.on_sit_requested, dispatch_uid="tournaments.sit")
        # Arenas: a board's points at its settlement, the players' return to the queue after
        # it, no spectators at a board entrants may be dealt, and their part of the state.
        stakes.on_points(arena.record_points)
        selectors.register_kind_fields(Kind.ARENA, arena_selectors.arena_fields)
        # Prizes held for review (ledger): the page hears of the hold and its decision.
        prize_hold_changed.connect(
            receivers.on_prize_hold_changed, dispatch_uid="tournaments.prize_hold"
        )
        round_settled.connect(
            arena_receivers.on_round_over, dispatch_uid="tournaments.arena_round_over"
        )
        watch_requested.connect(arena_receivers.may_watch, dispatch_uid="tournaments.arena_watch")
        # Kept out of a tournament's table: its page instead of a dead end.
        table_refused.connect(receivers.table_home, dispatch_uid="tournaments.table_home")
