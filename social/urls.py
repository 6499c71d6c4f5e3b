from django.urls import path

from social import views

app_name = "social"

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("notifications/", views.notifications, name="notifications"),
    path("players/<id:user_id>/", views.player, name="player"),
    path("players/<id:user_id>/befriend/", views.request_friend, name="request_friend"),
    path("players/<id:user_id>/cancel/", views.cancel, name="cancel"),
    path("players/<id:user_id>/unfriend/", views.unfriend, name="unfriend"),
    path("players/<id:user_id>/block/", views.block, name="block"),
    path("players/<id:user_id>/unblock/", views.unblock, name="unblock"),
    path("players/<id:user_id>/invite/", views.invite, name="invite"),
    path("players/<id:user_id>/challenge/", views.challenge, name="challenge"),
    path("challenges/<id:challenge_id>/accept/", views.accept_challenge, name="accept_challenge"),
    path(
        "challenges/<id:challenge_id>/decline/", views.decline_challenge, name="decline_challenge"
    ),
    path("challenges/<id:challenge_id>/cancel/", views.cancel_challenge, name="cancel_challenge"),
    path("requests/<id:request_id>/accept/", views.accept, name="accept"),
    path("requests/<id:request_id>/refuse/", views.refuse, name="refuse"),
]
