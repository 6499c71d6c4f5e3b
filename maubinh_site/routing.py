"""The site's websocket router: every socket's route, in one place (``maubinh_site.asgi``
serves it behind the origin and login checks; docs/protocol.md).

The table socket is the games consumer with table talk (``chat.consumers``); the tournament
socket is read-only for either kind, and an arena's also marks its entrant present. Ids are
``<id:...>`` (accounts.ids): a path no route takes, an id beyond a bigint included, is
closed with 4404 by the last route.
"""

from django.urls import path, re_path

from chat.consumers import ChatTableConsumer
from games.consumers import LobbyConsumer, NoSuchSocket
from tournaments.arena.consumers import ArenaConsumer
from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<id:table_id>/", ChatTableConsumer.as_asgi()),
    path("ws/tournaments/<id:tournament_id>/", TournamentConsumer.as_asgi()),
    # An arena's page and its tables' panel: the same state, and the entrant's presence.
    path("ws/tournaments/<id:tournament_id>/arena/", ArenaConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
