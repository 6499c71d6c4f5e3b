"""games.sequencer: one socket's table events go out in version order."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from games import events
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


# --- Scheduled events: a showdown's later chi (docs/protocol.md, "Reveals") ------------


def _showdown_message(version: int, at: float, *, round_id: int = 7) -> dict[str, Any]:
    """The showdown's first reveal, with chi 2 and 3 sent ahead to be shown at ``at`` and
    ``at`` + 0.1 (games.events.message, as games.services.showdown sends it)."""
    first = {"type": "reveal", "round": round_id, "revealed": 1, "version": version}
    later = [
        (
            f"reveal-{round_id}-{chi}",
            at + 0.1 * (chi - 2),
            {**first, "revealed": chi, "scheduled": True},
            None,
        )
        for chi in (2, 3)
    ]
    return events.message(first, later=later)


def _timed_recorder() -> tuple[list[tuple[Any, ...]], Any]:
    sent: list[tuple[Any, ...]] = []

    async def send(message: Any) -> None:
        payload = json.loads(message) if isinstance(message, str) else message
        sent.append((payload["type"], payload.get("revealed"), payload["version"], time.time()))

    return sent, send


def test_a_showdown_s_later_chi_go_out_each_at_its_time_and_never_before() -> None:
    async def scenario() -> tuple[list[tuple[Any, ...]], float]:
        sent, send = _timed_recorder()
        order = InOrder(send)
        await order.snapshot({"type": "snapshot", "version": 4})
        at = time.time() + 0.3
        await order.deliver(_showdown_message(5, at), user_id=1)
        await asyncio.sleep(0.6)
        return sent, at

    sent, at = run_async(scenario())
    assert [(kind, chi, version) for kind, chi, version, _ in sent] == [
        ("snapshot", None, 4),
        ("reveal", 1, 5),
        ("reveal", 2, 5),
        ("reveal", 3, 5),
    ]
    assert sent[2][3] >= at and sent[3][3] >= at + 0.1


def test_later_chi_sent_again_replace_the_ones_held_and_a_snapshot_replaces_them_all() -> None:
    async def scenario() -> list[tuple[Any, ...]]:
        sent, send = _timed_recorder()
        order = InOrder(send)
        await order.snapshot({"type": "snapshot", "version": 4})
        await order.deliver(_showdown_message(5, time.time() + 0.2), user_id=1)
        # A player leaves: the chi still to come are sent again with the leave's version.
        left = {"type": "player_left", "round": 7, "position": 2, "version": 6}
        again = {"type": "reveal", "round": 7, "revealed": 2, "version": 6, "scheduled": True}
        later = [("reveal-7-2", time.time() + 0.2, again, None)]
        await order.deliver(events.message(left, later=later), user_id=1)
        await asyncio.sleep(0.5)
        # A snapshot mid-showdown brings its own list of what is still to come.
        await order.deliver(_showdown_message(7, time.time() + 5, round_id=9), user_id=1)
        await order.snapshot({"type": "snapshot", "version": 9}, [])
        await asyncio.sleep(0.1)
        order.close()
        return sent

    sent = run_async(scenario())
    kinds = [(kind, chi, version) for kind, chi, version, _ in sent]
    # chi 2 once, the leave's; chi 3 from the showdown (the leave did not resend it);
    # nothing of round 9's later chi after the snapshot replaced them with none.
    assert kinds == [
        ("snapshot", None, 4),
        ("reveal", 1, 5),
        ("player_left", None, 6),
        ("reveal", 2, 6),
        ("reveal", 3, 5),
        ("reveal", 1, 7),
        ("snapshot", None, 9),
    ]


def test_a_settlement_sends_the_chi_still_held_first_and_a_void_drops_them() -> None:
    async def scenario() -> list[tuple[Any, ...]]:
        sent, send = _timed_recorder()
        order = InOrder(send)
        await order.snapshot({"type": "snapshot", "version": 4})
        await order.deliver(_showdown_message(5, time.time() + 30), user_id=1)
        settled = {"type": "settled", "round": 7, "version": 6}
        await order.deliver(events.message(settled), user_id=1)
        await order.deliver(_showdown_message(7, time.time() + 30, round_id=8), user_id=1)
        voided = {"type": "voided", "round": 8, "version": 8}
        await order.deliver(events.message(voided), user_id=1)
        order.close()
        return sent

    kinds = [(kind, chi, version) for kind, chi, version, _ in run_async(scenario())]
    assert kinds == [
        ("snapshot", None, 4),
        ("reveal", 1, 5),
        ("reveal", 2, 5),
        ("reveal", 3, 5),
        ("settled", None, 6),
        ("reveal", 1, 7),
        ("voided", None, 8),
    ]


def test_someone_outside_a_secret_board_s_audience_gets_the_withheld_later_chi() -> None:
    async def scenario() -> list[Any]:
        sent: list[Any] = []

        async def send(message: Any) -> None:
            sent.append(json.loads(message) if isinstance(message, str) else message)

        order = InOrder(send)
        await order.snapshot({"type": "snapshot", "version": 4})
        first = {"type": "reveal", "round": 7, "revealed": 1, "version": 5, "chi": ["cards"]}
        withheld = {**first, "chi": [], "withheld": True}
        then = {**first, "revealed": 2, "scheduled": True}
        later = [("reveal-7-2", time.time(), then, {**withheld, "revealed": 2})]
        await order.deliver(events.message(first, audience=([1], withheld), later=later), 2)
        await asyncio.sleep(0.1)
        return sent

    sent = run_async(scenario())
    assert [m.get("withheld") for m in sent[1:]] == [True, True]
    assert all(m.get("chi") == [] for m in sent[1:])
