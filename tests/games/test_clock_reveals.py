"""A showdown's later chi show on the clock (docs/protocol.md, "Reveals"): sent ahead with
the showdown's first step, held by each socket until their time, with no timer of their
own; the settlement's timer is the showdown's only one."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import events, services
from games.models import Round, RoundEvent, RoundState
from games.selectors import snapshot_and_later
from tests.support.arranging import naive_arrangement
from tests.support.played import deal_for_two, run_timers

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every table event published, with the events it sends ahead (``later``)."""
    out: list[dict[str, Any]] = []

    def publish(group: str, payload: dict[str, Any], **kw: Any) -> None:
        out.append({"group": group, "payload": payload, "later": list(kw.get("later", ()))})

    monkeypatch.setattr(events, "publish", publish)
    return out


def _showdown(players, table) -> Round:  # type: ignore[no-untyped-def]
    round_ = deal_for_two(players, table)
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(rp.user, round_.pk, naive_arrangement(rp.cards))
    round_.refresh_from_db()
    services.advance_round(round_.pk, RoundState.ARRANGING, round_.phase)
    round_.refresh_from_db()
    assert round_.state == RoundState.SHOWDOWN
    return round_


def _back(round_: Round, seconds: float) -> Round:
    """As if the showdown had begun ``seconds`` earlier."""
    assert round_.showdown_at is not None and round_.deadline is not None
    earlier = timedelta(seconds=seconds)
    Round.objects.filter(pk=round_.pk).update(
        showdown_at=round_.showdown_at - earlier, deadline=round_.deadline - earlier
    )
    round_.refresh_from_db()
    return round_


def test_the_showdown_sends_chi_2_and_3_ahead_each_due_reveal_seconds_after_the_one_before(
    players, table, sent
):
    round_ = _showdown(players, table)
    (first,) = [e for e in sent if e["payload"]["type"] == "reveal"]
    assert first["payload"]["revealed"] == 1 and "scheduled" not in first["payload"]
    seconds = round_.rules.reveal_seconds
    later = first["later"]
    assert [key for key, *_ in later] == [f"reveal-{round_.pk}-2", f"reveal-{round_.pk}-3"]
    start = round_.showdown_at.timestamp()
    assert [at for _key, at, _p, _o in later] == pytest.approx(
        [start + seconds, start + 2 * seconds]
    )
    for chi, (_key, _at, payload, others) in zip((2, 3), later, strict=True):
        assert payload["revealed"] == chi and payload["scheduled"] is True
        assert payload["version"] == first["payload"]["version"]  # the showdown's
        assert len(payload["chi"]) == chi and others is None  # not a secret board
    # The round's one timer now: its settlement, after the last chi has had its time.
    assert round_.deadline == round_.showdown_at + timedelta(seconds=3 * seconds)


def test_a_timer_that_fires_before_the_settlement_s_time_changes_nothing(players, table, sent):
    round_ = _showdown(players, table)
    before = len(sent)
    services.advance_round(round_.pk, RoundState.SHOWDOWN, round_.phase)
    round_.refresh_from_db()
    assert round_.state == RoundState.SHOWDOWN and round_.revealed == 1
    assert len(sent) == before  # no reveal step of its own: nothing published


def test_a_snapshot_in_the_showdown_shows_what_the_clock_has_shown_and_holds_the_rest(
    players, table, sent
):
    round_ = _back(_showdown(players, table), 2.5)  # reveal_seconds is 2: chi 2 is shown
    snapshot, later = snapshot_and_later(round_.table, players[0])
    view = snapshot["round"]
    assert view["revealed"] == 2 and len(view["reveal"]["chi"]) == 2
    assert view["deadline"] == round_.reveal_time(3).isoformat()  # chi 3's time
    ((item),) = later
    held = json.loads(item["text"])
    assert (held["revealed"], held["scheduled"], held["version"]) == (3, True, snapshot["version"])
    assert item["at"] == pytest.approx(round_.reveal_time(3).timestamp())
    # Nothing of chi 3 is in what the snapshot itself sends.
    assert all(c["chi"] != 3 for c in snapshot["round"]["reveal"]["chi"])


def test_leaving_in_the_showdown_sends_the_chi_to_come_again_with_the_leaver_s_forfeits(
    players, table, sent
):
    _showdown(players, table)
    services.stand(players[1])
    (left,) = [e for e in sent if e["payload"]["type"] == "player_left"]
    assert left["payload"]["after_chi"] == 1
    again = left["later"]
    assert [p["revealed"] for _k, _at, p, _o in again] == [2, 3]
    for _key, _at, payload, _others in again:
        assert payload["version"] == left["payload"]["version"]
        last = payload["chi"][-1]
        assert all(pair["reason"] == "forfeit" for pair in last["pairs"])


def test_the_settlement_logs_each_chi_the_clock_showed_before_it(players, table):
    round_ = run_timers(_showdown(players, table))
    assert round_.state == RoundState.SETTLED and round_.revealed == 3
    entries = list(RoundEvent.objects.filter(round=round_).order_by("seq"))
    reveals = [e.data["revealed"] for e in entries if e.kind == "reveal"]
    assert reveals == [1, 2, 3]
    assert [e.kind for e in entries][-1] == "settled"


def test_a_round_voided_in_the_showdown_logs_only_the_chi_shown_by_then(players, table):
    round_ = _back(_showdown(players, table), 2.5)
    services.void_round(round_.pk, reason="staff")
    round_.refresh_from_db()
    assert round_.state == RoundState.CANCELLED and round_.revealed == 2
    reveals = [
        e.data["revealed"]
        for e in RoundEvent.objects.filter(round=round_, kind="reveal").order_by("seq")
    ]
    assert reveals == [1, 2]
    assert timezone.now() >= round_.settled_at
