from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from ledger import selectors, services, tasks
from ledger.models import LedgerCheckRun

pytestmark = pytest.mark.postgres


@pytest.fixture
def busy_ledger(player: Any, other_player: Any, settings: Any) -> None:
    settings.HOUSE_FEE_PERCENT = "5"
    services.claim_daily_bonus(player)
    services.hold(1, player, 400)
    services.hold(1, other_player, 400)
    services.settle_round(1, {player.pk: 400, other_player.pk: -400})
    services.hold(2, player, 100)
    services.release_round_holds(2)
    services.hold(3, other_player, 50)  # still open


def test_ledger_check_passes_on_a_consistent_ledger(busy_ledger: None) -> None:
    out = StringIO()
    call_command("ledger_check", stdout=out)
    assert "OK" in out.getvalue()
    assert "circulation: 21000" in out.getvalue()
    run = selectors.last_check()
    assert run is not None
    assert run.ok


def test_ledger_check_exits_non_zero_on_a_corrupted_balance(busy_ledger: None, player: Any) -> None:
    with connection.cursor() as cursor:  # corruption behind the ledger's back
        cursor.execute(
            "UPDATE ledger_account SET balance = balance + 1 WHERE user_id = %s", [player.pk]
        )
    out = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("ledger_check", stdout=out)
    assert failed.value.returncode == 1
    assert f"wallet:{player.pk}: stored 11381 v6, history 11380" in out.getvalue()
    assert "issuance -21000 is not minus the xu in circulation 21001" in out.getvalue()
    assert LedgerCheckRun.objects.get().ok is False


def test_ledger_check_finds_xu_left_in_a_closed_rounds_escrow(busy_ledger: None) -> None:
    with connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_account SET balance = 7 WHERE key = 'escrow:1'")
    with pytest.raises(CommandError):
        call_command("ledger_check", "--no-record", stdout=StringIO())
    assert not LedgerCheckRun.objects.exists()


def test_the_periodic_task_stores_its_result(busy_ledger: None) -> None:
    assert tasks.check_ledger_task() is True
    assert LedgerCheckRun.objects.get().figures["escrow"] == 50


def test_check_results_older_than_a_month_are_pruned(busy_ledger: None) -> None:
    old = LedgerCheckRun.objects.create(
        ok=True, created_at=timezone.now() - services.CHECK_RUNS_KEPT - timedelta(minutes=1)
    )
    services.record_ledger_check()
    assert not LedgerCheckRun.objects.filter(pk=old.pk).exists()
    assert LedgerCheckRun.objects.count() == 1


def test_the_check_is_on_the_beat_schedule_every_ten_minutes() -> None:
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["ledger-check"]
    assert entry == {"task": "ledger.check", "schedule": 600.0}
    assert tasks.check_ledger_task.name == "ledger.check"
