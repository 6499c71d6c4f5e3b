"""games.sequencer: one socket's table events go out in version order."""

from __future__ import annotations

import asyncio
from typing import Any

from games.sequencer import InOrder
from tests.support.wsclient import run_async


def _recorder() -> tuple[list[Any], Any]:
    sent: list[Any] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append((message["type"], message["version"]))

    return sent, send


def _event(kind: str, version: int) -> dict[str, Any]:
    return {"type": kind, "version": version, "table": 1}


def test_an_event_that_overtook_an_earlier_one_waits_for_it() -> None:
    async def scenario() -> list[Any]:
        sent, send = _recorder()
        order = InOrder(send)
        await order.snapshot({"type": "snapshot", "version": 10})
        await order.event(_event("seat_left", 11), 11)
        await order.event(_event("seat_left", 13), 13)
        await order.event(_event("countdown", 12), 12)
        return sent

    assert run_async(scenario()) == [
        ("snapshot", 10),
        ("seat_left", 11),
        ("countdown", 12),
        ("seat_left", 13),
    ]


def test_a_private_event_follows_the_public_event_it_belongs_to() -> None:
    async def scenario() -> list[Any]:
        sent, send = _recorder()
        order = InOrder(send)
        await order.snapshot({"type": "snapshot", "version": 4})
        await order.event(_event("cards", 6), 6, private=True)
        await order.event(_event("round_started", 6), 6)
        await order.event(_event("countdown", 5), 5)
        return sent

    assert run_async(scenario())[1:] == [("countdown", 5), ("round_started", 6), ("cards", 6)]


def test_an_event_that_never_comes_is_given_up_on_and_the_client_sees_the_gap() -> None:
    async def scenario() -> list[Any]:
        sent, send = _recorder()
        order = InOrder(send, hold=0.2)
        await order.snapshot({"type": "snapshot", "version": 1})
        await order.event(_event("presence", 3), 3)
        await asyncio.sleep(0.1)
        assert sent == [("snapshot", 1)]
        await asyncio.sleep(0.3)
        await order.event(_event("presence", 4), 4)
        return sent

    assert run_async(scenario()) == [("snapshot", 1), ("presence", 3), ("presence", 4)]


def test_events_a_snapshot_already_covers_still_go_out_for_the_client_to_drop() -> None:
    async def scenario() -> list[Any]:
        sent, send = _recorder()
        order = InOrder(send)
        await order.snapshot({"type": "snapshot", "version": 7})
        await order.event(_event("submitted", 6), 6)
        await order.event(_event("submitted", 8), 8)
        return sent

    assert run_async(scenario())[1:] == [("submitted", 6), ("submitted", 8)]
