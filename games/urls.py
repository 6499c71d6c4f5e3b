from django.urls import path

from games import private_views, views

app_name = "games"

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("rules/", views.rules, name="rules"),
    path("tables/new/", views.create_table, name="create_table"),
    path("tables/new/rules/", views.effective_rules, name="effective_rules"),
    path("tables/quick-join/", views.quick_join, name="quick_join"),
    path("tables/<id:table_id>/", views.table, name="table"),
    path("tables/<id:table_id>/host/", private_views.host_tools, name="host_tools"),
    path("invite/<str:token>/", private_views.invite, name="invite"),
    path("rounds/<id:round_id>/suggest/", views.suggest, name="suggest"),
    path("history/", views.history_list, name="history"),
    path("history/<id:round_id>/", views.round_detail, name="round_detail"),
    path("history/<id:round_id>/verify/", views.verify, name="verify"),
    path("duplicate/<id:schedule_id>/", views.duplicate_schedule, name="duplicate_schedule"),
]
