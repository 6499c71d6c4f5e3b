"""The installable web app: its manifest, its service worker and the page shown offline.

The service worker (templates/sw.js) serves only the offline page and the site's hashed
static files from its cache: every page is fetched from the network and never stored, and
neither is any API, JSON or socket response, so a shared device never shows one player's
page to another. Without a network a page request gets the offline page, which says the
table needs a connection (templates/offline.html: no user's data in it, both languages).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

# What the service worker keeps: the offline page and what it needs to look like the site.
SHELL = [
    "css/site.css",
    "fonts/be-vietnam-pro/be-vietnam-pro-latin-400-normal.woff2",
    "fonts/be-vietnam-pro/be-vietnam-pro-vietnamese-400-normal.woff2",
    "fonts/be-vietnam-pro/be-vietnam-pro-latin-700-normal.woff2",
    "fonts/be-vietnam-pro/be-vietnam-pro-vietnamese-700-normal.woff2",
    "icons/icon-192.png",
    "favicon.svg",
]


@cache
def _shell() -> tuple[list[str], str]:
    """The shell's URLs (hashed names in production) and a version that changes with them."""
    urls = [static(name) for name in SHELL]
    version = hashlib.sha256("\n".join(urls).encode()).hexdigest()[:12]
    return urls, version


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    urls, version = _shell()
    context = {
        "version": version,
        "offline_url": reverse("offline"),
        "shell": json.dumps(urls),
        "static_url": "/" + settings.STATIC_URL.lstrip("/"),
    }
    return render(request, "sw.js", context, content_type="text/javascript; charset=utf-8")


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """Cached by the service worker once; the same for everyone (no header, no user)."""
    return render(request, "offline.html")


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": "Mậu Binh Online",
        "short_name": "Mậu Binh",
        "description": _("Vietnamese 13-card poker with friends, bots and tournaments."),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#0b3d26",
        "theme_color": "#0b3d26",
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response
