"""The sweeper's task (``CELERY_BEAT_SCHEDULE``: ``tournaments.sweep``, every 5 s).

Each kind's timers are its own (``tournaments.sitandgo.tasks``, ``tournaments.arena.tasks``,
imported at start-up by ``TournamentsConfig.ready`` so a worker knows them); every one keeps
the name it was registered under, so a timer queued before a deploy still runs after it.
"""

from __future__ import annotations

from celery import shared_task

from tournaments.sweeper import sweep_tournaments


@shared_task(name="tournaments.sweep", ignore_result=True)
def sweep_task() -> None:
    sweep_tournaments()
