"""Re-settling a round whose payout was wrong, without editing any history."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from ledger import selectors as ledger_selectors
from ledger.models import RoundClosure, Transfer
from moderation import selectors, services
from moderation.models import Resettlement, StaffAction
from notices.models import Notification

pytestmark = pytest.mark.django_db


def _balances(players: list[Any]) -> list[int]:
    return [ledger_selectors.balance(p) for p in players[:2]]


def test_settle_again_shows_the_difference_from_what_was_paid(corrupted_round: Any) -> None:
    rows = selectors.settle_again(corrupted_round)
    assert all(row.difference == 2 * row.correct_xu for row in rows)
    assert any(row.difference for row in rows)


def test_a_resettlement_restores_the_right_balances_and_the_ledger_check_passes(
    players: list[Any], moderator: Any, corrupted_round: Any
) -> None:
    right = [10_000 + p.xu for p in corrupted_round.players.order_by("position")]
    assert _balances(players) != right
    closure = RoundClosure.objects.get(round_id=corrupted_round.pk)

    resettlement = services.resettle(moderator, corrupted_round.pk, reason="Payout bug #12")

    assert resettlement is not None
    assert _balances(players) == right
    assert RoundClosure.objects.get(round_id=corrupted_round.pk).deltas == closure.deltas
    assert {t.kind for t in Transfer.objects.filter(pk__in=resettlement.transfer_ids)} == {
        "resettlement"
    }
    assert all(row.difference == 0 for row in selectors.settle_again(corrupted_round))
    call_command("ledger_check", "--no-record")  # exits 1 (SystemExit) on any problem
    action = StaffAction.objects.get(action="resettle")
    assert action.after["transfers"] == resettlement.transfer_ids
    assert Notification.objects.filter(kind="resettled").count() == 2


def test_resettling_twice_changes_nothing(
    players: list[Any], moderator: Any, corrupted_round: Any
) -> None:
    services.resettle(moderator, corrupted_round.pk, reason="Payout bug #12")
    balances, transfers = _balances(players), Transfer.objects.count()
    assert services.resettle(moderator, corrupted_round.pk, reason="Payout bug #12") is None
    assert services.resettle(moderator, corrupted_round.pk, reason="Another click") is None
    assert (_balances(players), Transfer.objects.count()) == (balances, transfers)
    assert Resettlement.objects.count() == 1
    assert StaffAction.objects.filter(action="resettle").count() == 1


def test_a_correctly_paid_round_has_nothing_to_resettle(moderator: Any, settled_round: Any) -> None:
    count = Transfer.objects.count()
    assert services.resettle(moderator, settled_round.pk, reason="Check") is None
    assert Transfer.objects.count() == count


def test_the_resettle_button_pays_the_differences(
    client: Any, players: list[Any], moderator: Any, corrupted_round: Any
) -> None:
    client.force_login(moderator)
    url = reverse("moderation:replay", args=[corrupted_round.pk])
    page = client.get(url, {"settle_again": 1})
    assert page.context["differs"] is True
    client.post(reverse("moderation:resettle", args=[corrupted_round.pk]), {"reason": "Bug"})
    page = client.get(url, {"settle_again": 1})
    assert page.context["differs"] is False
    assert 'data-testid="paid-correctly"' in page.content.decode()


def test_a_resettlement_filed_under_a_case_of_another_round_is_refused(
    players: list[Any], table: Any, moderator: Any, corrupted_round: Any
) -> None:
    from moderation.errors import ModerationError
    from tests.moderation.conftest import play_round

    other = play_round(players, table)
    case = services.file_dispute(players[0], other.pk, category="wrong_result", text="")
    services.claim(moderator, case.pk)
    with pytest.raises(ModerationError) as refused:
        services.resettle(moderator, corrupted_round.pk, reason="x", dispute_id=case.pk)
    assert refused.value.code == "other_round"
    assert not Resettlement.objects.exists()
