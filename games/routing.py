"""Websocket routes. Ids are ``<id:...>`` (accounts.ids): a path no route takes, an id
beyond a bigint included, is closed with 4404 by the last route."""

from django.urls import path, re_path

from games.consumers import LobbyConsumer, NoSuchSocket, TableConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
