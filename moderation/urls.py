from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [
    # Players
    path("rounds/<id:round_id>/dispute/", views.file_dispute, name="file_dispute"),
    path("report/<id:user_id>/", views.report_player, name="report_player"),
    path("cases/", views.my_cases, name="my_cases"),
    path("cases/<id:dispute_id>/", views.case_detail, name="case_detail"),
    path("notifications/", views.notifications, name="notifications"),
    # Moderators
    path("", views.queue, name="queue"),
    path("cases/<id:dispute_id>/claim/", views.claim, name="claim"),
    path("cases/<id:dispute_id>/resolve/", views.resolve, name="resolve"),
    path("cases/<id:dispute_id>/compensate/", views.compensate, name="compensate"),
    path("rounds/<id:round_id>/replay/", views.replay, name="replay"),
    path("rounds/<id:round_id>/open-board/", views.open_board, name="open_board"),
    path("rounds/<id:round_id>/resettle/", views.resettle, name="resettle"),
    path("rounds/<id:round_id>/void/", views.void_round, name="void_round"),
    path("users/", views.users, name="users"),
    path("users/<id:user_id>/", views.user_detail, name="user_detail"),
    path("users/<id:user_id>/suspend/", views.suspend, name="suspend"),
    path("users/<id:user_id>/lift/", views.lift_suspension, name="lift_suspension"),
    path("users/<id:user_id>/mute/", views.mute, name="mute"),
    path("users/<id:user_id>/unmute/", views.unmute, name="unmute"),
    path("users/<id:user_id>/limit/", views.set_limit, name="set_limit"),
    path("tables/<id:table_id>/close/", views.close_table, name="close_table"),
    path("signals/", views.signals, name="signals"),
    path("prizes/", views.prizes, name="prizes"),
    path("prizes/<id:tournament_id>/decide/", views.decide_prizes, name="decide_prizes"),
    # Admins
    path("dashboard/", views.dashboard, name="dashboard"),
    path("audit/", views.audit_log, name="audit_log"),
    path(
        "compensations/<id:compensation_id>/approve/",
        views.approve_compensation,
        name="approve_compensation",
    ),
    path(
        "compensations/<id:compensation_id>/reject/",
        views.reject_compensation,
        name="reject_compensation",
    ),
]
