"""The chaos harness's check that no tournament that is over keeps xu in its pool
(``benchmarks.chaos.tournament_checks.ended_pools_holding_xu``), run on the test database: it
passes on what the services leave behind and flags a pool left holding xu."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from benchmarks.chaos.tournament_checks import ended_pools_holding_xu
from ledger import services as ledger
from tournaments.models import State, Tournament
from tournaments.sitandgo import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture
def players(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("an", "binh", "chi", "dung")]


def _db() -> Any:
    connection.ensure_connection()
    return connection.connection  # the psycopg connection the harness would hold


def test_no_problem_when_every_tournament_that_is_over_has_an_empty_closed_pool(players):
    cancelled = services.create_sit_and_go(players[0], name="Hủy", players=4, buy_in=300)
    services.cancel(players[0], cancelled.pk)
    held = services.create_sit_and_go(players[1], name="Giữ", players=4, buy_in=300)
    Tournament.objects.filter(pk=held.pk).update(state=State.FINISHED)
    ledger.hold_prizes(held.pk, {players[1].pk: 300}, findings=[], title="Giữ", url="/")
    services.create_sit_and_go(players[2], name="Đang mở", players=4, buy_in=300)
    assert ended_pools_holding_xu(_db()) == []


def test_a_finished_or_voided_tournament_whose_pool_still_holds_xu_is_flagged(players):
    stuck = services.create_sit_and_go(players[0], name="Kẹt", players=4, buy_in=300)
    Tournament.objects.filter(pk=stuck.pk).update(state=State.FINISHED)
    voided = services.create_sit_and_go(players[1], name="Hủy bỏ", players=4, buy_in=200)
    Tournament.objects.filter(pk=voided.pk).update(state=State.VOIDED)
    problems = ended_pools_holding_xu(_db())
    assert problems == [
        f"tournament {stuck.pk} finished: its pool holds 300 xu (closure none)",
        f"tournament {voided.pk} voided: its pool holds 200 xu (closure none)",
    ]


def test_a_decided_hold_still_keeping_xu_is_flagged(players):
    t = services.create_sit_and_go(players[0], name="Giữ", players=4, buy_in=300)
    Tournament.objects.filter(pk=t.pk).update(state=State.FINISHED)
    ledger.hold_prizes(t.pk, {players[0].pk: 300}, findings=[], title="Giữ", url="/")
    ledger.release_prizes(t.pk, actor=players[3], reason="ok")
    assert ended_pools_holding_xu(_db()) == []
    ledger.post_transfers(
        [
            ledger.Leg(
                kind="adjustment",
                debit=f"wallet:{players[1].pk}",
                credit=f"prize_hold:{t.pk}",
                amount=50,
                key="stray",
            )
        ]
    )
    assert ended_pools_holding_xu(_db()) == [
        f"tournament {t.pk} finished: its prize hold keeps 50 xu (decided)"
    ]
