"""The floor's consumer: a real round's messages, relayed, with no database and no Celery.

On the same client messages as the site's table socket (``sit``, ``start``, ``submit``) it
sends the same messages a real round sends (``round.json``, recorded from the real
services by ``benchmarks.floor.record``): the snapshot and chat state on connect; on a sit,
``seat_taken`` (each socket answering it with its ``chat_role``), the lobby's rows and the
countdown; on the deal, ``round_started``, each player's ``cards`` and ``round_dealt``; on a
submission its ``ok``, ``submitted`` to the table and ``submission`` to the player; then the
showdown's reveals, one every ``reveal_seconds``, the ``settled`` summary and its countdown;
on each ``ready`` the countdown with who is ready, and the next deal when all four are, or
``summary_seconds`` after the summary. Every event goes through the channel layer's
``group_send`` to the groups the site uses, encoded as ``games.events.message`` encodes it.

The table's clock (who has submitted, the reveals, the next deal) lives in the socket of
seat 0 (the host), in asyncio tasks; the other sockets tell it of their sits and
submissions through the channel layer (the site keeps that state in PostgreSQL, its timers
in Celery).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random
from pathlib import Path
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

RECORDED = json.loads(Path(__file__).with_name("round.json").read_text())
STEPS = RECORDED["steps"]
REVEAL_SECONDS = RECORDED["rules"]["reveal_seconds"]
ARRANGE_SECONDS = RECORDED["rules"]["arrange_seconds"]
START_SECONDS = RECORDED["rules"]["start_seconds"]
SUMMARY_SECONDS = RECORDED["summary_seconds"]
SEATS = 4
DECK = sorted({card for e in STEPS["start"]["events"] if e["payload"]["type"] == "cards"
               for card in e["payload"]["cards"]})  # fmt: skip
# games.events.HEAD: the fields a socket acts on.
HEAD = ("type", "version", "user", "reason")


def message(payload: dict[str, Any], private: bool) -> dict[str, Any]:
    """The channel-layer message of an event, as games.events.message builds it."""
    return {
        "type": "game.event",
        "head": {key: payload[key] for key in HEAD if key in payload},
        "text": json.dumps(payload),
        "private": private,
    }


def seat_of(scope: dict[str, Any]) -> int:
    """The seat a load player's cookie names (``sessionid=floor-<table>-<seat>``)."""
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _, cookie = part.strip().partition("=")
                if key == "sessionid":
                    return int(cookie.rpartition("-")[2])
    raise ValueError("no sessionid")


class RelayConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        await self.accept()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.seat = seat_of(self.scope)
        key = f"floor-{self.table_id}-{self.seat}"
        # The site's three groups for a player's table socket (games.consumers).
        self.groups_joined = [
            "session-" + hashlib.sha256(key.encode()).hexdigest()[:40],
            self.table_group,
            self.private_group(self.seat),
        ]
        self.clock: TableClock | None = None
        if self.seat == 0:
            self.clock = TableClock(self)
            self.groups_joined.append(self.clock_group)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        step = STEPS[f"connect:{self.seat}"]
        for content in step["send"]:
            await self.send_json({**content, "table": self.table_id})
        await self.publish(step["events"])

    async def disconnect(self, code: int) -> None:
        if self.clock is not None:
            self.clock.stop()
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    @property
    def table_group(self) -> str:
        return f"table-{self.table_id}"

    @property
    def clock_group(self) -> str:
        return f"floor-{self.table_id}-clock"

    def private_group(self, seat: int) -> str:
        return f"table-{self.table_id}-user-{seat}"

    def user_group(self, seat: int) -> str:
        return f"user-{self.table_id}-{seat}"

    async def publish(
        self, recorded: list[dict[str, Any]], round_id: int = 0, **fields: Any
    ) -> None:
        """group_send each recorded event, with this table's (and round's) numbers."""
        for event in recorded:
            payload = {
                **event["payload"],
                "table": self.table_id,
                **fields.get(event["payload"]["type"], {}),
            }
            if "round" in payload and round_id:
                payload["round"] = round_id
            group = {
                "table": self.table_group,
                "lobby": "lobby",
                "private": self.private_group(event.get("seat", 0)),
                "user": self.user_group(event.get("seat", 0)),
            }[event["to"]]
            if event["to"] == "private" and payload["type"] == "cards":
                payload["cards"] = fields["hands"][event["seat"]]
            await self.channel_layer.group_send(group, message(payload, event["private"]))

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind, ref = content.get("type"), content.get("ref")
        reply: dict[str, Any] = {}
        if kind == "sit":
            reply = {"position": self.seat}
            await self.publish(STEPS[f"sit:{self.seat}"]["events"])
            await self.channel_layer.group_send(
                self.clock_group, {"type": "floor.sat", "seat": self.seat}
            )
        elif kind == "start" and self.clock is not None:
            reply = {"round": self.clock.start()}
        elif kind == "submit":
            round_id = int(content["round"])
            reply = {"round": round_id}
            await self.publish(
                STEPS[f"submit:{self.seat}"]["events"],
                round_id,
                submitted={"position": self.seat},
                submission={"chi": content["chi"]},
            )
            await self.channel_layer.group_send(
                self.clock_group, {"type": "floor.submitted", "seat": self.seat, "round": round_id}
            )
        elif kind == "ready":
            # The host's clock sends what the site's step does: the countdown with who is
            # ready, or (the fourth) the next deal.
            await self.channel_layer.group_send(
                self.clock_group,
                {"type": "floor.ready", "seat": self.seat, "round": int(content["round"])},
            )
        else:
            await self.send_json({"type": "error", "code": "unknown_type", "ref": ref,
                                  "message": "Unknown message type."})  # fmt: skip
            return
        await self.send_json({"type": "ok", "for": kind, "ref": ref, **reply})

    async def game_event(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])
        if event["head"].get("type") == "seat_taken":
            await self.send_json({**STEPS["chat_role"][self.seat], "table": self.table_id})

    async def floor_sat(self, event: dict[str, Any]) -> None:
        if self.clock is not None:
            self.clock.sat(event["seat"])

    async def floor_submitted(self, event: dict[str, Any]) -> None:
        if self.clock is not None:
            self.clock.submitted(event["seat"], event["round"])

    async def floor_ready(self, event: dict[str, Any]) -> None:
        if self.clock is not None:
            await self.clock.ready(event["seat"], event["round"])


class TableClock:
    """A table's rounds, kept by its host's socket: the deal, the submissions, the reveals
    and the next deal, on asyncio timers."""

    def __init__(self, consumer: RelayConsumer) -> None:
        self.consumer = consumer
        self.round_id = 0
        self.arranging = False
        self.seated: set[int] = set()
        self.everyone_sat = asyncio.Event()
        self.done: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.deadline: asyncio.Task[None] | None = None
        self.between = 0  # the round whose summary is showing (0: none)
        self.readies: set[int] = set()

    def _spawn(self, coroutine: Any) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()

    def sat(self, seat: int) -> None:
        self.seated.add(seat)
        if len(self.seated) == SEATS:
            self.everyone_sat.set()

    def start(self) -> int:
        """The host's ``start``: the first deal, once all four sat (or the countdown ran
        out); a round already running goes on."""
        if self.round_id == 0 and not self.tasks:
            self._spawn(self._first_deal())
        return self.round_id or 1

    async def _first_deal(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.everyone_sat.wait(), START_SECONDS)
        await self._deal(STEPS["start"]["events"])

    async def _deal(self, recorded: list[dict[str, Any]]) -> None:
        self.round_id += 1
        self.arranging, self.done = True, set()
        deck = list(DECK)
        random.shuffle(deck)
        hands = [deck[13 * k : 13 * (k + 1)] for k in range(SEATS)]
        await self.consumer.publish(recorded, self.round_id, hands=hands)
        self.deadline = self._spawn(self._arranging_ends(self.round_id))

    async def _arranging_ends(self, round_id: int) -> None:
        await asyncio.sleep(ARRANGE_SECONDS)
        if self.round_id == round_id and self.arranging:
            self._showdown()

    def submitted(self, seat: int, round_id: int) -> None:
        if round_id != self.round_id or not self.arranging:
            return
        self.done.add(seat)
        if len(self.done) == SEATS:
            self._showdown()

    def _showdown(self) -> None:
        self.arranging = False
        if self.deadline is not None and self.deadline is not asyncio.current_task():
            self.deadline.cancel()
        self._spawn(self._reveal_and_settle(self.round_id))

    async def _reveal_and_settle(self, round_id: int) -> None:
        for index, recorded in enumerate(STEPS["timers"]):
            if index:
                await asyncio.sleep(REVEAL_SECONDS)
            await self.consumer.publish(recorded, round_id)
        self.between, self.readies = round_id, set()
        await asyncio.sleep(SUMMARY_SECONDS)
        if self.between == round_id:  # nobody made it deal sooner by saying ready
            self.between = 0
            await self._deal(STEPS["deal"]["events"])

    async def ready(self, seat: int, round_id: int) -> None:
        """A seat said ready after the round ``round_id``: the countdown with who is, or,
        once all four are, the next deal at once (games.services.between)."""
        if round_id != self.between or seat in self.readies:
            return
        self.readies.add(seat)
        if len(self.readies) < SEATS:
            await self.consumer.publish(STEPS[f"ready:{len(self.readies) - 1}"]["events"])
            return
        self.between = 0
        await self._deal(STEPS["deal"]["events"])
