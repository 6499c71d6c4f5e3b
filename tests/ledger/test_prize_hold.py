"""The ledger's prize holds: a tournament's pool moved whole into its hold for a moderator,
then released (the recorded prizes paid) or returned (each buy-in back), once; every xu
accounted for by ``ledger_check`` (docs/ledger.md, prize holds)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from ledger import selectors, services
from ledger.audit import run_checks
from ledger.errors import (
    HoldAlreadyDecided,
    InvalidSettlement,
    NoPrizeHold,
    PoolAlreadyClosed,
    ReasonRequired,
    StaffOnly,
)
from ledger.models import Account, HoldOutcome, PoolClosure, PoolOutcome, Transfer
from ledger.signals import prize_hold_changed

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

FINDINGS = [{"signal": "fouls", "users": [1]}]


@pytest.fixture
def four(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("an", "binh", "chi", "dung")]


@pytest.fixture
def moderator(make_user: Any) -> Any:
    return make_user("mod")


def _held(four: list[Any], tournament: int = 7) -> Any:
    """Four buy-ins of 1,000 (the second player withdrew once and came back), held with
    the whole pool as the first player's prize."""
    for user in four:
        services.buy_in(tournament, user, 1_000)
    services.refund_buy_in(tournament, four[1], entry=1)
    services.buy_in(tournament, four[1], 1_000, entry=2)
    return services.hold_prizes(
        tournament, {four[0].pk: 4_000}, findings=FINDINGS, title="Giải", url="/tournaments/7/"
    )


def test_holding_moves_the_pool_into_the_hold_and_pays_nobody(four: list[Any]) -> None:
    hold = _held(four)
    assert (hold.amount, hold.prizes, hold.findings) == (4_000, {str(four[0].pk): 4_000}, FINDINGS)
    assert selectors.pool_balance(7) == 0
    assert Account.objects.get(key="prize_hold:7").balance == 4_000
    closure = PoolClosure.objects.get(tournament_id=7)
    assert (closure.outcome, closure.prizes) == (PoolOutcome.HELD, {str(four[0].pk): 4_000})
    assert [selectors.balance(u) for u in four] == [9_000] * 4
    assert selectors.prize_review(7)["status"] == "pending"  # type: ignore[index]
    report = run_checks()
    assert report.ok, report.problems
    assert report.figures["prize_holds"] == 4_000 and report.figures["prize_holds_pending"] == 1


def test_a_held_pool_takes_no_more_buy_ins_and_pays_no_prizes(four: list[Any]) -> None:
    _held(four)
    assert services.hold_prizes(7, {four[0].pk: 4_000}, findings=[], title="", url="").amount
    with pytest.raises(PoolAlreadyClosed):
        services.buy_in(7, four[2], 1_000, entry=2)
    with pytest.raises(PoolAlreadyClosed):
        services.pay_prizes(7, {four[0].pk: 4_000})
    with pytest.raises(PoolAlreadyClosed):
        services.refund_pool(7)


def test_prizes_that_do_not_add_up_to_the_pool_are_not_held(four: list[Any]) -> None:
    for user in four:
        services.buy_in(8, user, 100)
    with pytest.raises(InvalidSettlement):
        services.hold_prizes(8, {four[0].pk: 300}, findings=FINDINGS, title="", url="")
    assert selectors.pool_balance(8) == 400 and not PoolClosure.objects.exists()


def test_releasing_pays_exactly_the_recorded_prizes_once(four: list[Any], moderator: Any) -> None:
    _held(four)
    decision, first = services.release_prizes(7, actor=moderator, reason="bạn bè, không gian lận")
    assert first and decision.outcome == HoldOutcome.RELEASED
    assert decision.paid == {str(four[0].pk): 4_000}
    assert [selectors.balance(u) for u in four] == [13_000, 9_000, 9_000, 9_000]
    assert Account.objects.get(key="prize_hold:7").balance == 0
    prize = Transfer.objects.get(kind="prize")
    assert prize.idempotency_key == f"prize:7:{four[0].pk}"
    assert (prize.actor_id, prize.reason) == (moderator.pk, "bạn bè, không gian lận")
    again, repeated = services.release_prizes(7, actor=moderator, reason="lần nữa")
    assert again.pk == decision.pk and not repeated
    assert selectors.balance(four[0]) == 13_000
    with pytest.raises(HoldAlreadyDecided):
        services.return_buy_ins(7, actor=moderator, reason="đổi ý")
    assert selectors.prize_review(7)["status"] == "released"  # type: ignore[index]
    report = run_checks()
    assert report.ok, report.problems
    call_command("ledger_check")


def test_returning_gives_each_buy_in_back_to_whoever_paid_it(
    four: list[Any], moderator: Any
) -> None:
    _held(four)
    decision, first = services.return_buy_ins(7, actor=moderator, reason="thông đồng")
    assert first and decision.outcome == HoldOutcome.RETURNED
    assert decision.paid == {str(u.pk): 1_000 for u in four}
    assert [selectors.balance(u) for u in four] == [10_000] * 4
    assert Account.objects.get(key="prize_hold:7").balance == 0
    assert not Transfer.objects.filter(kind="prize").exists()
    with pytest.raises(HoldAlreadyDecided):
        services.release_prizes(7, actor=moderator, reason="đổi ý")
    assert services.return_buy_ins(7, actor=moderator, reason="lại")[1] is False
    report = run_checks()
    assert report.ok, report.problems


def test_a_decision_needs_a_staff_member_a_reason_and_a_hold(
    four: list[Any], moderator: Any
) -> None:
    with pytest.raises(NoPrizeHold):
        services.release_prizes(7, actor=moderator, reason="?")
    _held(four)
    with pytest.raises(ReasonRequired):
        services.release_prizes(7, actor=moderator, reason="  ")
    with pytest.raises(StaffOnly):
        services.return_buy_ins(7, actor=None, reason="x")
    assert Account.objects.get(key="prize_hold:7").balance == 4_000


def test_the_apps_above_hear_of_each_step_after_the_commit(
    four: list[Any], moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    heard: list[tuple[int, str]] = []

    def listen(sender: Any, tournament_id: int, outcome: str, **kwargs: Any) -> None:
        heard.append((tournament_id, outcome))

    prize_hold_changed.connect(listen, dispatch_uid="test.prize_hold")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            _held(four)
            assert heard == []  # not before the commit
        with django_capture_on_commit_callbacks(execute=True):
            services.release_prizes(7, actor=moderator, reason="ok")
    finally:
        prize_hold_changed.disconnect(dispatch_uid="test.prize_hold")
    assert heard == [(7, "held"), (7, "released")]


def test_ledger_check_flags_xu_leaving_a_hold_without_a_decision(four: list[Any]) -> None:
    _held(four)
    services.post_transfers(
        [
            services.Leg(
                kind="prize",
                debit="prize_hold:7",
                credit=f"wallet:{four[2].pk}",
                amount=4_000,
                key="stray",
            )
        ]
    )
    assert any("prize hold" in p for p in run_checks().problems)


def test_a_prize_hold_and_its_decision_cannot_be_rewritten(four: list[Any], moderator: Any) -> None:
    _held(four)
    services.return_buy_ins(7, actor=moderator, reason="thông đồng")
    for table in ("ledger_prizehold", "ledger_prizeholddecision"):
        with (
            pytest.raises(Exception, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(f"UPDATE {table} SET created_at = now()")
