"""The tournaments' routes: the list, a tournament's page (either kind: ``views``
dispatches), its state, withdrawing; then each kind's own actions."""

from django.urls import path

from tournaments import views
from tournaments.arena import urls as arena_urls
from tournaments.sitandgo import urls as sitandgo_urls

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<id:tournament_id>/", views.tournament_detail, name="detail"),
    path("<id:tournament_id>/state/", views.tournament_state, name="state"),
    path("<id:tournament_id>/unregister/", views.unregister, name="unregister"),
]

# Each kind's own block: the sit-and-go's (tournaments.sitandgo.urls), the arena's.
urlpatterns += sitandgo_urls.urlpatterns
urlpatterns += arena_urls.urlpatterns
