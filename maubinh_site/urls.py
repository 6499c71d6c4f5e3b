from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from maubinh_site.health import healthz

urlpatterns = [
    path("", account_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("xu/", include("ledger.urls")),
    path("admin/", admin.site.urls),
]
