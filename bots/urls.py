from django.urls import path

from bots import views

app_name = "bots"

urlpatterns = [path("play/quick/", views.quick_play, name="quick_play")]
