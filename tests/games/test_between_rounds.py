"""Between rounds (games.services.between): the summary shows long enough to read before
the next deal; everyone ready deals at once; at a private table a player may ask for more
time, once a round and never for ever."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings

from games import services
from games.errors import RoundError, SeatError
from games.models import Round, RoundEvent, RoundState, Table
from games.selectors import between_view, table_snapshot
from games.services import private
from tests.support.played import run_timers

pytestmark = pytest.mark.django_db(transaction=True)


def _play_round(players, table) -> Round:  # type: ignore[no-untyped-def]
    """Deal, everyone submits, the showdown runs to its settlement."""
    round_ = services.start_round(players[0], table.pk)
    for rp in round_.players.select_related("user"):
        c = rp.cards
        services.submit_arrangement(rp.user, round_.pk, [c[:5], c[5:10], c[10:]])
    round_ = run_timers(round_)
    assert round_.state == RoundState.SETTLED
    return round_


@pytest.fixture
def private_table(players) -> Table:  # type: ignore[no-untyped-def]
    table = services.create_table(
        players[0],
        name="Bàn bạn bè",
        stake=10,
        is_private=True,
        rules_overrides={"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 5},
    )
    invite = private.create_invite(players[0], table.pk)
    private.admit(players[1], invite.token)
    for p in players[:2]:
        services.sit(p, table.pk)
    return table


def test_the_next_deal_waits_until_the_summary_has_been_readable(players, table) -> None:  # type: ignore[no-untyped-def]
    for p in players[:2]:
        services.sit(p, table.pk)
    round_ = _play_round(players, table)
    table.refresh_from_db()
    assert round_.settled_at is not None and table.start_at is not None
    shown = (table.start_at - round_.settled_at).total_seconds()
    assert shown >= settings.TABLE_SUMMARY_SECONDS - 0.5 >= 10  # not the 6 s it was


def test_when_every_person_is_ready_the_next_round_is_dealt_at_once(players, table) -> None:  # type: ignore[no-untyped-def]
    for p in players[:2]:
        services.sit(p, table.pk)
    first = _play_round(players, table)
    assert services.between_rounds(players[0], table.pk, first.pk, "ready") is None
    table.refresh_from_db()
    view = table_snapshot(table, players[1])["between"]
    assert view == {"round": first.pk, "ready": [players[0].pk], "waited": []}
    dealt = services.between_rounds(players[1], table.pk, first.pk, "ready")
    assert dealt is not None and dealt.number == first.number + 1
    assert dealt.state == RoundState.ARRANGING


def test_a_ready_never_puts_the_deal_off_and_queues_no_timer_of_its_own(  # type: ignore[no-untyped-def]
    players, table, published, monkeypatch
) -> None:
    """Before, a ``ready`` counted the deal down again from scratch: paced once more (a
    site dealing its rate moved it later) and a second timer queued for it."""
    from games.services import countdown
    from games.tasks import start_round_when_due_task

    for p in players[:3]:
        services.sit(p, table.pk)
    first = _play_round(players, table)
    table.refresh_from_db()
    start_at, version = table.start_at, table.version
    queued: list[Any] = []
    monkeypatch.setattr(start_round_when_due_task, "apply_async", lambda *a, **k: queued.append(a))
    monkeypatch.setattr(countdown, "paced", lambda _table, when: when + timedelta(seconds=10))
    published.clear()

    assert services.between_rounds(players[0], table.pk, first.pk, "ready") is None

    table.refresh_from_db()
    assert table.start_at == start_at and table.version == version + 1
    assert queued == []
    [event] = [e for _g, e in published if e.get("type") == "countdown"]
    assert event["start_at"] == start_at.isoformat() and event["version"] == version + 1
    assert event["between"] == {"round": first.pk, "ready": [players[0].pk], "waited": []}
    assert RoundEvent.objects.filter(round=first, kind="ready").count() == 1


def test_saying_ready_twice_changes_nothing(players, table) -> None:  # type: ignore[no-untyped-def]
    for p in players[:2]:
        services.sit(p, table.pk)
    first = _play_round(players, table)
    services.between_rounds(players[0], table.pk, first.pk, "ready")
    table.refresh_from_db()
    version = table.version
    services.between_rounds(players[0], table.pk, first.pk, "ready")
    table.refresh_from_db()
    assert table.version == version
    assert RoundEvent.objects.filter(round=first, kind="ready").count() == 1


def test_a_player_at_a_private_table_may_ask_for_more_time_once(players, private_table) -> None:  # type: ignore[no-untyped-def]
    first = _play_round(players, private_table)
    private_table.refresh_from_db()
    before = private_table.start_at
    services.between_rounds(players[1], private_table.pk, first.pk, "wait")
    private_table.refresh_from_db()
    assert private_table.start_at > before
    assert private_table.start_at <= first.settled_at + timedelta(
        seconds=settings.TABLE_WAIT_LIMIT_SECONDS
    )
    with pytest.raises(RoundError) as again:
        services.between_rounds(players[1], private_table.pk, first.pk, "wait")
    assert again.value.code == "already_waited"


def test_waits_never_put_the_deal_off_past_the_limit(players, private_table, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    first = _play_round(players, private_table)
    monkeypatch.setattr(settings, "TABLE_WAIT_SECONDS", 120)
    for p in players[:2]:
        services.between_rounds(p, private_table.pk, first.pk, "wait")
    private_table.refresh_from_db()
    limit = first.settled_at + timedelta(seconds=settings.TABLE_WAIT_LIMIT_SECONDS)
    assert private_table.start_at <= limit + timedelta(seconds=1)  # paced by a turn at most


def test_who_said_ready_and_who_waited_reads_the_same_from_the_table_as_from_the_log(  # type: ignore[no-untyped-def]
    players, private_table
) -> None:
    # The countdown's readers take it from the table row (Table.between); the round log
    # stays the record, and both say the same after every ready and wait.
    def both(round_: Round) -> tuple[Any, Any]:
        table = Table.objects.get(pk=private_table.pk)
        kept = between_view(table, round_)
        table.between = None  # as a table whose row holds nothing for this round
        return kept, between_view(table, round_)

    first = _play_round(players, private_table)
    assert both(first) == ({"round": first.pk, "ready": [], "waited": []},) * 2
    steps = [
        (players[0], "ready"),
        (players[1], "wait"),
        (players[0], "wait"),
        (players[1], "ready"),
    ]
    people = [players[0].pk, players[1].pk]
    for player, choice in steps:
        assert services.between_rounds(player, private_table.pk, first.pk, choice) is None
        kept, logged = both(first)
        assert {**kept, "people": people} == {**logged, "people": people}
        assert Table.objects.get(pk=private_table.pk).between == {**kept, "people": people}
    assert kept == {
        "round": first.pk,
        "ready": [players[1].pk],
        "waited": [players[1].pk, players[0].pk],
    }
    dealt = services.between_rounds(players[0], private_table.pk, first.pk, "ready")
    assert dealt is not None
    # The next countdown.
    for rp in dealt.players.select_related("user"):
        c = rp.cards
        services.submit_arrangement(rp.user, dealt.pk, [c[:5], c[5:10], c[10:]])
    second = run_timers(dealt)
    assert second.state == RoundState.SETTLED
    empty = {"round": second.pk, "ready": [], "waited": []}
    settled = Table.objects.get(pk=private_table.pk).between
    assert settled == {**empty, "people": people}  # the settlement's
    assert both(second) == (empty, empty)
    # A row holding another round's (as one from before the field) is not read for this one.
    Table.objects.filter(pk=private_table.pk).update(between=kept)
    services.between_rounds(players[1], private_table.pk, second.pk, "ready")
    assert both(second)[0] == both(second)[1] == {**empty, "ready": [players[1].pk]}


def test_a_public_table_does_not_wait_for_one_player(players, table) -> None:  # type: ignore[no-untyped-def]
    for p in players[:2]:
        services.sit(p, table.pk)
    first = _play_round(players, table)
    with pytest.raises(RoundError) as refused:
        services.between_rounds(players[0], table.pk, first.pk, "wait")
    assert refused.value.code == "not_private"


def test_a_stale_round_or_a_spectator_is_refused_and_changes_nothing(players, table) -> None:  # type: ignore[no-untyped-def]
    for p in players[:2]:
        services.sit(p, table.pk)
    first = _play_round(players, table)
    with pytest.raises(RoundError) as stale:
        services.between_rounds(players[0], table.pk, first.pk + 1000, "ready")
    assert stale.value.code == "not_between_rounds"
    with pytest.raises(SeatError) as watching:
        services.between_rounds(players[3], table.pk, first.pk, "ready")
    assert watching.value.code == "not_seated"
    assert not RoundEvent.objects.filter(round=first, kind__in=["ready", "wait"]).exists()


def test_a_ready_from_a_tab_still_on_the_round_before_a_deal_is_refused(players, table) -> None:  # type: ignore[no-untyped-def]
    # A ready is answered from the table row (Table.between) while it names the round that
    # ended; the deal clears it, so the tab of a round already followed by another is
    # refused, during that round and in the countdown after it.
    for p in players[:3]:
        services.sit(p, table.pk)
    first = _play_round(players, table)
    assert services.between_rounds(players[0], table.pk, first.pk, "ready") is None
    services.between_rounds(players[1], table.pk, first.pk, "ready")
    second = services.between_rounds(players[2], table.pk, first.pk, "ready")
    assert second is not None
    assert Table.objects.get(pk=table.pk).between is None
    with pytest.raises(RoundError) as during:
        services.between_rounds(players[0], table.pk, first.pk, "ready")
    assert during.value.code == "not_between_rounds"
    for rp in second.players.select_related("user"):
        c = rp.cards
        services.submit_arrangement(rp.user, second.pk, [c[:5], c[5:10], c[10:]])
    assert run_timers(second).state == RoundState.SETTLED
    with pytest.raises(RoundError) as after:
        services.between_rounds(players[1], table.pk, first.pk, "ready")
    assert after.value.code == "not_between_rounds"
    assert services.between_rounds(players[1], table.pk, second.pk, "ready") is None
    assert RoundEvent.objects.filter(round=first, kind="ready").count() == 3


@pytest.mark.usefixtures("own_socket_threads")
def test_ready_and_wait_over_the_socket_are_answered_and_refused_in_words(players, table) -> None:  # type: ignore[no-untyped-def]
    """The `ready` / `wait` commands (docs/protocol.md "Between rounds") go through the
    consumer: `ok`, a refusal with its code and message, a malformed round id."""
    from channels.testing import WebsocketCommunicator

    from games.consumers import TableConsumer
    from tests.support.wsclient import run_async

    for p in players[:2]:
        services.sit(p, table.pk)
    first = _play_round(players, table)

    async def scenario() -> None:
        socket = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{table.pk}/")
        socket.scope["user"] = players[0]
        socket.scope["url_route"] = {"kwargs": {"table_id": table.pk}}
        assert (await socket.connect(timeout=10))[0]
        snapshot = await socket.receive_json_from(timeout=10)
        assert snapshot["between"] == {"round": first.pk, "ready": [], "waited": []}

        async def reply_to(ref: int) -> dict[str, Any]:
            while True:
                message = await socket.receive_json_from(timeout=10)
                if message.get("ref") == ref:
                    return message

        await socket.send_json_to({"type": "wait", "round": first.pk, "ref": 1})
        refused = await reply_to(1)
        assert (refused["type"], refused["code"]) == ("error", "not_private")
        assert "bàn riêng" in refused["message"]
        await socket.send_json_to({"type": "ready", "round": "x", "ref": 2})
        assert (await reply_to(2))["code"] == "malformed"
        await socket.send_json_to({"type": "ready", "round": first.pk, "ref": 3})
        assert (await reply_to(3)) == {"type": "ok", "for": "ready", "ref": 3}
        await socket.disconnect()

    run_async(scenario())
    assert RoundEvent.objects.filter(round=first, kind="ready", user=players[0]).count() == 1


def test_a_ready_counts_who_sat_down_during_the_countdown(players, table) -> None:  # type: ignore[no-untyped-def]
    """The table row keeps the people seated at the round's end, so that a ``ready`` need
    not read the seats; a seat taken since must be waited for all the same."""
    for p in players[:2]:
        services.sit(p, table.pk)
    first = _play_round(players, table)
    services.sit(players[2], table.pk)  # sits down while the summary shows
    assert services.between_rounds(players[0], table.pk, first.pk, "ready") is None
    assert services.between_rounds(players[1], table.pk, first.pk, "ready") is None  # not yet
    table.refresh_from_db()
    assert table.between is not None and table.between["people"] == [p.pk for p in players[:3]]
    dealt = services.between_rounds(players[2], table.pk, first.pk, "ready")
    assert dealt is not None and dealt.players.count() == 3


def test_a_player_who_stood_up_during_the_countdown_is_refused_and_not_waited_for(  # type: ignore[no-untyped-def]
    players, table
) -> None:
    for p in players[:3]:
        services.sit(p, table.pk)
    first = _play_round(players, table)
    services.stand(players[2])
    with pytest.raises(SeatError) as refused:
        services.between_rounds(players[2], table.pk, first.pk, "ready")
    assert refused.value.code == "not_seated"
    assert services.between_rounds(players[0], table.pk, first.pk, "ready") is None
    dealt = services.between_rounds(players[1], table.pk, first.pk, "ready")
    assert dealt is not None and dealt.players.count() == 2
