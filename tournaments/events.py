"""Pushes to a tournament's page. Sent after the commit (``games.events.publish``).

Group ``tournament-<id>``: every event is the tournament's whole public state
(``selectors.tournament_state``) with the ``version`` it was built at, so a client keeps
the highest version it has seen and never needs a gap filled (docs/protocol.md).
"""

from __future__ import annotations

from django.db import transaction

from games import events


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def changed(tournament_id: int) -> None:
    """The tournament's public state changed: send it, as it stands after the commit."""

    def send() -> None:
        from tournaments.selectors import tournament_state

        # Built after the commit, so it carries that commit's version (or a later one:
        # an older state is never sent after a newer one from this process).
        events.publish(tournament_group(tournament_id), tournament_state(tournament_id))

    transaction.on_commit(send, robust=True)
