"""The tournament socket: the page's live standings (docs/protocol.md, Tournaments).

Read-only: it joins the tournament's group and forwards its events (each the whole public
state with its version); ``{"type": "snapshot"}`` asks for the state again.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from games.consumers import CLOSE_NOT_FOUND, CLOSE_UNAUTHENTICATED, _Consumer, run_read
from tournaments import selectors
from tournaments.events import tournament_group
from tournaments.models import Tournament


def _state(tournament_id: int, kind: str | None) -> dict[str, Any] | None:
    """The state, or None: no such tournament, or not of the socket's kind."""
    found = Tournament.objects.filter(pk=tournament_id)
    if kind is not None:
        found = found.filter(kind=kind)
    if not found.exists():
        return None
    return selectors.tournament_state(tournament_id)


class TournamentConsumer(_Consumer):
    found = False  # the tournament exists (its state was sent)
    kind: str | None = None
    """The kind this socket serves (None: either, read-only); another kind is not found."""

    async def connect(self) -> None:
        self._setup()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        await self.join(tournament_group(self.tournament_id))
        self.found = await self.send_state()
        if not self.found:
            await self.close(code=CLOSE_NOT_FOUND)

    async def send_state(self, ref: Any = None) -> bool:
        state = await run_read(_state)(self.tournament_id, self.kind)
        if state is None:
            return False
        await self.send_json({**state, "ref": ref})
        return True

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        if content.get("type") == "snapshot":
            await self.send_state(content.get("ref"))
            return
        with translation.override(self._language()):
            await self.error("unknown_type", _("Unknown message type."), content.get("ref"))
