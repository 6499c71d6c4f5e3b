from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [
    # Players
    path("rounds/<int:round_id>/dispute/", views.file_dispute, name="file_dispute"),
    path("report/<int:user_id>/", views.report_player, name="report_player"),
    path("cases/", views.my_cases, name="my_cases"),
    path("cases/<int:dispute_id>/", views.case_detail, name="case_detail"),
    path("notifications/", views.notifications, name="notifications"),
    # Moderators
    path("", views.queue, name="queue"),
    path("cases/<int:dispute_id>/claim/", views.claim, name="claim"),
    path("cases/<int:dispute_id>/resolve/", views.resolve, name="resolve"),
    path("cases/<int:dispute_id>/compensate/", views.compensate, name="compensate"),
    path("rounds/<int:round_id>/replay/", views.replay, name="replay"),
    path("rounds/<int:round_id>/resettle/", views.resettle, name="resettle"),
    path("rounds/<int:round_id>/void/", views.void_round, name="void_round"),
    path("users/", views.users, name="users"),
    path("users/<int:user_id>/", views.user_detail, name="user_detail"),
    path("users/<int:user_id>/suspend/", views.suspend, name="suspend"),
    path("users/<int:user_id>/lift/", views.lift_suspension, name="lift_suspension"),
    path("users/<int:user_id>/mute/", views.mute, name="mute"),
    path("users/<int:user_id>/unmute/", views.unmute, name="unmute"),
    path("users/<int:user_id>/limit/", views.set_limit, name="set_limit"),
    path("tables/<int:table_id>/close/", views.close_table, name="close_table"),
    path("signals/", views.signals, name="signals"),
    path("prizes/", views.prizes, name="prizes"),
    path("prizes/<int:tournament_id>/decide/", views.decide_prizes, name="decide_prizes"),
    # Admins
    path("dashboard/", views.dashboard, name="dashboard"),
    path("audit/", views.audit_log, name="audit_log"),
    path(
        "compensations/<int:compensation_id>/approve/",
        views.approve_compensation,
        name="approve_compensation",
    ),
    path(
        "compensations/<int:compensation_id>/reject/",
        views.reject_compensation,
        name="reject_compensation",
    ),
]
