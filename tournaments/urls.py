from django.urls import path

from tournaments import arena_urls, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<id:tournament_id>/", views.tournament_detail, name="detail"),
    path("<id:tournament_id>/state/", views.tournament_state, name="state"),
    path("<id:tournament_id>/register/", views.register, name="register"),
    path("<id:tournament_id>/unregister/", views.unregister, name="unregister"),
    path("<id:tournament_id>/start-now/", views.start_now, name="start_now"),
    path("<id:tournament_id>/cancel/", views.cancel, name="cancel"),
]

# Arenas (tournaments.arena_urls): their own block.
urlpatterns += arena_urls.urlpatterns
