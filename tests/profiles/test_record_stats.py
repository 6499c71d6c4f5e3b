"""profiles.services.record_settled_rounds: the scheduled step that keeps the summary."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Round, RoundState
from ledger import services as ledger
from profiles import selectors, services
from profiles.models import PeriodTotal, RoundStat, StatsCursor
from tests.profiles.conftest import chi_pair
from tests.support.played import play_to_the_end, quick_table

pytestmark = pytest.mark.django_db


def test_recording_twice_counts_each_round_once(history: Any, four: list[Any]) -> None:
    history.round(four[:2], [10, -10], pairs=[chi_pair(0, 1, [0, 0, 1])])
    assert services.record_settled_rounds() == 1
    assert services.record_settled_rounds() == 0
    assert selectors.figures(four[0]).rounds == 1
    assert RoundStat.objects.count() == 2


def test_a_batch_limit_leaves_the_rest_for_the_next_run(history: Any, four: list[Any]) -> None:
    for _ in range(3):
        history.round(four[:2], [10, -10])
    assert services.record_settled_rounds(limit=2) == 2
    assert services.record_settled_rounds(limit=2) == 1
    assert selectors.figures(four[0]).net_xu == 30


def test_the_cursor_passes_old_finished_rounds_and_waits_at_a_live_one(
    history: Any, four: list[Any]
) -> None:
    old = timezone.now() - timedelta(hours=1)
    first = history.round(four[:2], [10, -10])
    live = history.round(four[2:], [5, -5])
    last = history.round(four[:2], [10, -10])
    Round.objects.filter(pk__in=[first.pk, live.pk, last.pk]).update(dealt_at=old)
    Round.objects.filter(pk=live.pk).update(state=RoundState.SHOWDOWN)
    services.record_settled_rounds()
    assert StatsCursor.objects.get().next_round_id == live.pk
    Round.objects.filter(pk=live.pk).update(state=RoundState.SETTLED)
    assert services.record_settled_rounds() == 1
    assert StatsCursor.objects.get().next_round_id == last.pk + 1


def test_a_cancelled_round_is_not_counted(history: Any, four: list[Any]) -> None:
    round_ = history.round(four[:2], [10, -10])
    Round.objects.filter(pk=round_.pk).update(state=RoundState.CANCELLED)
    assert services.record_settled_rounds() == 0


def test_a_re_settled_round_moves_the_players_net(
    history: Any, four: list[Any], make_user: Any
) -> None:
    round_ = history.round(four[:2], [10, -10])
    services.record_settled_rounds()
    moderator = make_user("kiem_soat")
    ledger.resettle_round(
        round_.pk, {four[0].pk: -10, four[1].pk: 10}, reason="wrong winner", actor=moderator
    )
    services.record_settled_rounds()
    assert selectors.figures(four[0]).net_xu == -10
    assert selectors.figures(four[1]).net_xu == 10
    assert selectors.figures(four[1]).rounds == 1  # moved, not counted again
    day = PeriodTotal.objects.get(user=four[1], period="day")
    assert day.net_xu == 10


def test_a_played_round_is_recorded_as_the_games_and_ledger_settled_it(
    make_user: Any,
) -> None:
    an, binh = make_user("an"), make_user("binh")
    table = quick_table(an, name="Bàn thử")
    round_ = play_to_the_end([an, binh], table)
    assert round_.state == RoundState.SETTLED
    services.record_settled_rounds()
    for rp in round_.players.all():
        stat = RoundStat.objects.get(round=round_, user_id=rp.user_id)
        mine = next(p for p in round_.settlement["players"] if p["id"] == str(rp.position))
        assert stat.net_xu == rp.xu
        assert stat.chi1_won + stat.chi2_won + stat.chi3_won == mine["chi_won"]
        assert stat.foul == mine["foul"]


def test_the_catch_up_command_records_every_past_round(history: Any, four: list[Any]) -> None:
    from io import StringIO

    from django.core.management import call_command

    for _ in range(3):
        history.round(four[:2], [10, -10])
    out = StringIO()
    call_command("record_round_stats", stdout=out)
    assert "done: 3 rounds recorded" in out.getvalue()
    assert selectors.figures(four[0]).rounds == 3
