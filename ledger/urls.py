from django.urls import path

from ledger import views

app_name = "ledger"

urlpatterns = [
    path("statement/", views.statement, name="statement"),
    path("daily-bonus/", views.claim_daily_bonus, name="daily_bonus"),
]
