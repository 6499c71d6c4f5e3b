"""Sit-and-go routes (added to ``tournaments.urls``; its page is ``tournaments:detail``)."""

from django.urls import path

from tournaments.sitandgo import views

urlpatterns = [
    path("<id:tournament_id>/register/", views.register, name="register"),
    path("<id:tournament_id>/start-now/", views.start_now, name="start_now"),
    path("<id:tournament_id>/cancel/", views.cancel, name="cancel"),
]
