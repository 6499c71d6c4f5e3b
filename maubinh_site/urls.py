from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from games import views as game_views
from maubinh_site.health import healthz

urlpatterns = [
    path("", game_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("xu/", include("ledger.urls")),
    path("moderation/", include("moderation.urls")),
    path("", include("bots.urls")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("", include("games.urls")),
    path("admin/", admin.site.urls),
]
