"""Websocket routes: the games routes, with the table socket that also carries table talk."""

from django.urls import path

from chat.consumers import ChatTableConsumer
from games.consumers import LobbyConsumer
from tournaments.arena_consumers import ArenaConsumer
from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", ChatTableConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    # An arena's page and its tables' panel: the same state, and the entrant's presence.
    path("ws/tournaments/<int:tournament_id>/arena/", ArenaConsumer.as_asgi()),
]
