"""Arena routes (added to ``tournaments.urls``; the arena's page is ``tournaments:detail``)."""

from django.urls import path

from tournaments import arena_views

urlpatterns = [
    path("arenas/new/", arena_views.arena_new, name="arena_new"),
    path("<id:tournament_id>/arena/join/", arena_views.join, name="arena_join"),
    path("<id:tournament_id>/arena/pause/", arena_views.pause, name="arena_pause"),
    path("<id:tournament_id>/arena/resume/", arena_views.resume, name="arena_resume"),
    path("<id:tournament_id>/arena/start/", arena_views.start, name="arena_start"),
    path("<id:tournament_id>/arena/cancel/", arena_views.cancel, name="arena_cancel"),
]
