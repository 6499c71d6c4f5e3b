"""Separation of duties on the money paths: nobody handles, approves or is paid by their own case.

Each test replays one finding of the security review (issue 12) and shows it now refused,
with the refusal in the staff audit log.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from games import services as games
from ledger import selectors as ledger_selectors
from ledger import services as ledger
from ledger.errors import SelfPayment
from moderation import services
from moderation.errors import Forbidden, ModerationError
from moderation.models import Compensation, Dispute, ModeratorLimit, StaffAction
from tests.moderation.conftest import play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def high_table(moderator: Any) -> Any:
    """A table the moderator opened at a stake they chose (their balance ÷ 20)."""
    stake = ledger_selectors.balance(moderator) // 20
    return games.create_table(
        moderator,
        name="Bàn của mod",
        stake=stake,
        rules_overrides={"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 5},
    )


@pytest.fixture
def own_report(moderator: Any, players: list[Any], high_table: Any) -> Dispute:
    """The moderator played a round at their own table and reported the other player."""
    round_ = play_round([moderator, players[1]], high_table)
    return services.report_player(
        moderator, players[1].pk, category="other", text="Cheated me", round_id=round_.pk
    )


def _refusals(actor: Any) -> list[StaffAction]:
    return list(StaffAction.objects.filter(actor=actor, action="refused"))


def test_a_moderator_cannot_claim_or_pay_a_case_they_filed(moderator: Any, own_report: Any):
    with pytest.raises(Forbidden) as refused:
        services.claim(moderator, own_report.pk)
    assert refused.value.code == "conflict_of_interest"
    own_report.refresh_from_db()
    assert own_report.moderator is None
    [refusal] = _refusals(moderator)
    assert refusal.after == {"tried": "claim", "code": "conflict_of_interest"}
    assert refusal.target_id == str(own_report.pk)


def test_an_admin_cannot_step_into_a_case_they_played_in(
    admin: Any, players: list[Any], table: Any, other_moderator: Any
):
    round_ = play_round([players[0], admin], table)
    case = services.file_dispute(players[0], round_.pk, category="wrong_result", text="?")
    with pytest.raises(Forbidden):
        services.claim(admin, case.pk)
    services.claim(other_moderator, case.pk)
    for act in (
        lambda: services.compensate(admin, case.pk, amount=10, reason="x"),
        lambda: services.resolve(admin, case.pk, outcome="upheld", resolution="x"),
        lambda: services.resettle(admin, round_.pk, reason="x"),
    ):
        with pytest.raises(Forbidden) as refused:
            act()
        assert refused.value.code == "conflict_of_interest"
    assert len(_refusals(admin)) == 4


def test_a_moderator_cannot_handle_a_report_about_themselves(
    moderator: Any, other_moderator: Any, players: list[Any], table: Any
):
    games.sit(players[1], table.pk)  # a report made from a table, the moderator not seated
    case = services.report_player(
        players[1], moderator.pk, category="other", text="Nói bậy", table_id=table.pk
    )
    with pytest.raises(Forbidden) as refused:
        services.claim(moderator, case.pk)
    assert refused.value.code == "conflict_of_interest"
    assert _refusals(moderator)[0].after == {"tried": "claim", "code": "conflict_of_interest"}
    with pytest.raises(IntegrityError), transaction.atomic():
        Dispute.objects.filter(pk=case.pk).update(moderator=moderator, status="in_review")
    services.claim(other_moderator, case.pk)  # someone it does not concern handles it


def test_a_staff_member_is_never_paid_by_a_case_they_filed(
    moderator: Any, other_moderator: Any, own_report: Any
):
    services.claim(other_moderator, own_report.pk)  # another moderator may handle it
    with pytest.raises(Forbidden) as refused:
        services.compensate(other_moderator, own_report.pk, amount=10, reason="Big bug")
    assert refused.value.code == "staff_filer"
    assert not Compensation.objects.exists()
    assert _refusals(other_moderator)[0].after == {"tried": "compensate", "code": "staff_filer"}


def test_a_compensation_limit_does_not_grow_with_the_stake(moderator: Any, players: list[Any]):
    table = games.create_table(
        players[1],
        name="Bàn lớn",
        stake=500,  # 50 stakes would have been 25,000 xu
        rules_overrides={"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 5},
    )
    round_ = play_round(players[1:3], table)
    case = services.file_dispute(players[1], round_.pk, category="other", text="?")
    services.claim(moderator, case.pk)
    request = services.compensate(moderator, case.pk, amount=50 * 500, reason="x")
    assert request.status == "pending" and request.transfer is None


def test_an_admin_cannot_raise_their_own_limit(admin: Any, client: Any):
    client.force_login(admin)
    url = reverse("moderation:set_limit", args=[admin.pk])
    client.post(url, {"per_payment": 100_000, "per_day": 100_000, "reason": "mine"})
    assert not ModeratorLimit.objects.exists()
    [refusal] = _refusals(admin)
    assert refusal.after["tried"] == "set_limit"


def test_a_moderators_limit_is_set_by_another_admin_in_the_database_too(moderator: Any, admin: Any):
    with pytest.raises(IntegrityError), transaction.atomic():
        ModeratorLimit.objects.create(
            moderator=moderator, per_payment=1, per_day=1, set_by=moderator
        )


def test_an_admin_paying_a_million_alone_waits_for_a_second_admin(
    admin: Any, other_admin: Any, players: list[Any], settled_round: Any
):
    case = services.file_dispute(players[0], settled_round.pk, category="other", text="?")
    services.claim(admin, case.pk)
    balance = ledger_selectors.balance(players[0])
    request = services.compensate(admin, case.pk, amount=1_000_000, reason="Sorry")
    assert request.status == "pending"
    assert ledger_selectors.balance(players[0]) == balance
    services.approve_compensation(other_admin, request.pk)
    assert ledger_selectors.balance(players[0]) == balance + 1_000_000


@pytest.mark.parametrize("amount", [10**20, 2**63, 1_000_001, "²", "1e5", -5])
def test_a_compensation_amount_out_of_bounds_gets_a_message(
    moderator: Any, players: list[Any], settled_round: Any, amount: Any
):
    case = services.file_dispute(players[0], settled_round.pk, category="other", text="?")
    services.claim(moderator, case.pk)
    with pytest.raises(ModerationError) as refused:
        services.compensate(moderator, case.pk, amount=amount, reason="x")
    assert refused.value.code in {"bad_amount", "amount_too_large"}
    assert not Compensation.objects.exists()


def test_a_too_large_amount_from_the_page_is_a_message_not_a_500(
    client: Any, moderator: Any, players: list[Any], settled_round: Any
):
    case = services.file_dispute(players[0], settled_round.pk, category="other", text="?")
    services.claim(moderator, case.pk)
    client.force_login(moderator)
    url = reverse("moderation:compensate", args=[case.pk])
    response = client.post(url, {"amount": str(10**20), "reason": "x"}, follow=True)
    assert response.status_code == 200
    assert not Compensation.objects.exists()


def test_the_rolling_24_hours_limit_sends_the_next_payment_to_an_admin(
    moderator: Any, admin: Any, players: list[Any], table: Any
):
    services.set_compensation_limit(
        admin, moderator.pk, per_payment=100, per_day=150, reason="Mới vào nghề"
    )
    cases = []
    for _n in range(3):
        round_ = play_round(players, table)
        case = services.file_dispute(players[0], round_.pk, category="other", text="?")
        services.claim(moderator, case.pk)
        cases.append(case)
    assert services.compensate(moderator, cases[0].pk, amount=100, reason="x").status == "paid"
    assert services.compensate(moderator, cases[1].pk, amount=60, reason="x").status == "pending"
    assert services.compensate(moderator, cases[2].pk, amount=50, reason="x").status == "paid"
    # A day later the first payment no longer counts.
    Compensation.objects.filter(status="paid").update(
        created_at=timezone.now() - timedelta(hours=25)
    )
    assert services.solo_allowance(moderator) == 100


def test_nobody_is_paid_by_a_compensation_they_asked_for_in_the_database(
    moderator: Any, own_report: Any
):
    with pytest.raises(IntegrityError), transaction.atomic():
        Compensation.objects.create(
            dispute=own_report,
            recipient=moderator,
            amount=10,
            reason="x",
            requested_by=moderator,
            status="pending",
        )


def test_nobody_handles_their_own_case_in_the_database(moderator: Any, own_report: Any):
    with pytest.raises(IntegrityError), transaction.atomic():
        Dispute.objects.filter(pk=own_report.pk).update(moderator=moderator, status="in_review")


def test_the_ledger_refuses_a_staff_payment_to_the_staff_member_themselves(admin: Any):
    with pytest.raises(SelfPayment):
        ledger.compensate(admin, 10, reason="x", actor=admin, dispute_id=1)
    with pytest.raises(SelfPayment):
        ledger.adjust_balance(admin, 10, reason="x", actor=admin)


def test_a_suspended_moderator_loses_every_staff_power_at_once(
    client: Any, moderator: Any, admin: Any, players: list[Any]
):
    client.force_login(moderator)
    assert client.get(reverse("moderation:queue")).status_code == 200
    services.suspend(admin, moderator.pk, hours=24, reason="Under review")
    assert client.get(reverse("moderation:queue")).status_code == 404
    url = reverse("moderation:suspend", args=[players[0].pk])
    assert client.post(url, {"hours": 5, "reason": "x"}).status_code == 404
    players[0].refresh_from_db()
    assert not players[0].is_suspended()
    moderator.refresh_from_db()
    with pytest.raises(Forbidden):
        services.suspend(moderator, players[0].pk, hours=5, reason="x")
    assert {r.after["tried"] for r in _refusals(moderator)} == {"queue", "suspend"}


def test_a_suspended_admin_cannot_open_the_django_admin(client: Any, admin: Any, other_admin: Any):
    client.force_login(admin)
    assert client.get(reverse("admin:index")).status_code == 200
    services.suspend(other_admin, admin.pk, hours=24, reason="Under review")
    assert client.get(reverse("admin:index")).status_code == 302  # to the admin's login


def test_a_deactivated_moderator_has_no_staff_power(moderator: Any, players: list[Any]):
    moderator.is_active = False
    with pytest.raises(Forbidden):
        services.suspend(moderator, players[0].pk, hours=5, reason="x")


def test_a_resettlement_above_the_bound_gets_a_message(
    moderator: Any, corrupted_round: Any, settings: Any
):
    settings.MODERATION_AMOUNT_MAX_XU = 1
    with pytest.raises(ModerationError) as refused:
        services.resettle(moderator, corrupted_round.pk, reason="Wrong payout")
    assert refused.value.code == "resettlement_too_large"
    assert _refusals(moderator)[0].after["code"] == "resettlement_too_large"
