"""The sweeper advances due rounds, and one stuck table never stalls the others."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.errors import TableBusy
from games.models import Round, RoundState
from tests.support.stuck import table_locked_elsewhere

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def due_rounds(players):  # type: ignore[no-untyped-def]
    """Two tables of two players, each with a round whose arranging deadline has passed;
    the first table's round is the older one, so a sweep reaches it first."""
    rounds = []
    for number, pair in enumerate((players[:2], players[2:])):
        table = services.create_table(
            pair[0],
            name=f"Bàn {number}",
            stake=10,
            rules_overrides={"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 60},
        )
        for player in pair:
            services.sit(player, table.pk)
        rounds.append(services.start_round(pair[0], table.pk))
    now = timezone.now()
    Round.objects.filter(pk=rounds[0].pk).update(deadline=now - timedelta(seconds=20))
    Round.objects.filter(pk=rounds[1].pk).update(deadline=now - timedelta(seconds=10))
    return rounds


def _in_thread(work):  # type: ignore[no-untyped-def]
    """Run ``work`` on its own database connection; the thread records what it raised."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["result"] = work()
        except Exception as exc:
            outcome["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_a_table_locked_by_a_stuck_process_does_not_stall_the_sweep_of_other_tables(due_rounds):
    stuck, other = due_rounds
    with table_locked_elsewhere(stuck.table_id):
        sweep, _outcome = _in_thread(services.sweep_due_rounds)
        sweep.join(timeout=3)
        other.refresh_from_db()
        stuck.refresh_from_db()
        assert other.state == RoundState.SHOWDOWN, "the sweep waited for the stuck table"
        assert stuck.state == RoundState.ARRANGING
    sweep.join(timeout=10)
    services.sweep_due_rounds()  # the next sweep catches the table up once its lock is free
    stuck.refresh_from_db()
    assert stuck.state == RoundState.SHOWDOWN


def test_a_command_at_a_stuck_table_is_refused_as_busy_after_the_lock_timeout(due_rounds, settings):
    stuck, _other = due_rounds
    player = stuck.players.select_related("user").first()
    cards = player.cards
    Round.objects.filter(pk=stuck.pk).update(deadline=timezone.now() + timedelta(seconds=60))
    with table_locked_elsewhere(stuck.table_id):
        started = time.monotonic()
        submit, outcome = _in_thread(
            lambda: services.submit_arrangement(
                player.user, stuck.pk, [cards[:5], cards[5:10], cards[10:]]
            )
        )
        submit.join(timeout=settings.DB_LOCK_TIMEOUT_MS / 1000 + 5)
        waited = time.monotonic() - started
    submit.join(timeout=10)
    assert isinstance(outcome.get("error"), TableBusy), outcome
    assert waited < settings.DB_LOCK_TIMEOUT_MS / 1000 + 3
    assert outcome["error"].code == "table_busy"  # type: ignore[union-attr]


def test_a_stuck_transaction_is_ended_by_the_server_and_its_table_moves_on(due_rounds, settings):
    stuck, _other = due_rounds
    with table_locked_elsewhere(stuck.table_id, app_limits=True):
        services.sweep_due_rounds()
        stuck.refresh_from_db()
        assert stuck.state == RoundState.ARRANGING  # skipped while the lock is held
        time.sleep(settings.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS / 1000 + 1)
        services.sweep_due_rounds()  # the stopped process still "holds" it: its session is gone
        stuck.refresh_from_db()
        assert stuck.state == RoundState.SHOWDOWN
