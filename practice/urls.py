from django.urls import path

from practice import views

app_name = "practice"

urlpatterns = [
    path("daily/", views.daily, name="daily"),
    path("daily/seeds/", views.commitments, name="commitments"),
    path("daily/<str:day>/", views.daily_day, name="daily_day"),
    path("", views.practice, name="practice"),
    path("new/", views.new_practice_hand, name="new"),
]
