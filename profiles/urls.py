from django.urls import path

from profiles import views

app_name = "profiles"

urlpatterns = [
    path("players/<id:user_id>/", views.profile, name="profile"),
    path("players/<id:user_id>/avatar/<int:version>/", views.avatar, name="avatar"),
    path(
        "players/<id:user_id>/avatars/<int:index>.svg",
        views.generated_avatar,
        name="generated_avatar",
    ),
    path("me/avatar/", views.edit_avatar, name="edit_avatar"),
    path("me/stats/", views.my_stats, name="my_stats"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
]
