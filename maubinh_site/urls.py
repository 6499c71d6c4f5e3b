from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog

from games import views as game_views
from maubinh_site import inbox, pwa
from maubinh_site.health import healthz


class FaviconView(RedirectView):
    """Browsers ask for /favicon.ico whatever the page says; send them to the icon."""

    permanent = True

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("favicon.svg")  # at request time: the hashed name needs the manifest


admin.site.site_header = _("Mậu Binh Online administration")
admin.site.site_title = _("Mậu Binh Online administration")
admin.site.index_title = _("Ledger, players and moderation")

urlpatterns = [
    path("favicon.ico", FaviconView.as_view(), name="favicon"),
    path("", game_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    # The installable web app (maubinh_site/pwa.py): the worker must sit at the root to
    # answer for every page.
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("offline/", pwa.offline, name="offline"),
    # One inbox over moderation's and social's notices (maubinh_site/inbox.py).
    path("inbox/", inbox.inbox, name="inbox"),
    path("inbox/unread/", inbox.unread, name="inbox_unread"),
    # The open API (docs/api.md): operations, OAuth 2, the token page, the docs.
    path("api/", include("api.urls")),
    path("accounts/", include("accounts.urls")),
    path("xu/", include("ledger.urls")),
    path("moderation/", include("moderation.urls")),
    path("practice/", include("practice.urls")),
    path("social/", include("social.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", include("bots.urls")),
    path("", include("profiles.urls")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("", include("games.urls")),
    path("admin/", admin.site.urls),
]
