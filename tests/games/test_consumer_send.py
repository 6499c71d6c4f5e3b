"""A table socket that closes while events are on their way."""

from __future__ import annotations

from autobahn.exception import Disconnected

from games import events
from games.consumers import TableConsumer
from tests.support.wsclient import run_async


def test_an_event_for_a_socket_the_browser_just_closed_is_dropped_not_raised():
    consumer = TableConsumer()
    sent: list[dict] = []

    async def closed_socket(message: dict) -> None:
        # What daphne does when a message reaches a websocket that is already closed.
        sent.append(message)
        raise Disconnected("Attempt to send on a closed protocol")

    consumer.base_send = closed_socket
    run_async(consumer.game_event(events.message({"type": "submitted", "version": 7})))
    assert sent and sent[0]["type"] == "websocket.send"  # it was tried, then dropped


def test_a_socket_error_while_sending_is_dropped_too():
    consumer = TableConsumer()

    async def reset(message: dict) -> None:
        raise ConnectionResetError("peer gone")

    consumer.base_send = reset
    run_async(consumer.error("malformed", "The message is not valid JSON."))
