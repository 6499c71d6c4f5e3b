"""Arena routes (added to ``tournaments.urls``; the arena's page is ``tournaments:detail``)."""

from django.urls import path

from tournaments.arena import views

urlpatterns = [
    path("arenas/new/", views.arena_new, name="arena_new"),
    path("<id:tournament_id>/arena/join/", views.join, name="arena_join"),
    path("<id:tournament_id>/arena/pause/", views.pause, name="arena_pause"),
    path("<id:tournament_id>/arena/resume/", views.resume, name="arena_resume"),
    path("<id:tournament_id>/arena/start/", views.start, name="arena_start"),
    path("<id:tournament_id>/arena/cancel/", views.cancel, name="arena_cancel"),
]
