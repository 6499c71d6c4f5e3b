"""Websocket routes (the lobby and table consumers are added with the live tables)."""

from django.urls import URLPattern, URLResolver

websocket_urlpatterns: list[URLPattern | URLResolver] = []
