"""Two staff members clicking at the same moment change things once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ledger.models import Transfer
from moderation import services
from moderation.errors import ModerationError
from moderation.models import StaffAction
from tests.support.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _race(*calls: Callable[[], Any]) -> list[Any]:
    return race(*calls, refusals=(ModerationError,))


def test_two_admins_approving_one_request_at_once_pay_once(
    players: list[Any], moderator: Any, admin: Any, other_admin: Any, settled_round: Any
) -> None:
    case = services.file_dispute(players[0], settled_round.pk, category="other", text="")
    services.claim(moderator, case.pk)
    request = services.compensate(moderator, case.pk, amount=9_999, reason="Big bug")
    results = _race(
        lambda: services.approve_compensation(admin, request.pk),
        lambda: services.approve_compensation(other_admin, request.pk),
    )
    assert sorted(type(r).__name__ for r in results) == ["Compensation", "ModerationError"]
    assert Transfer.objects.filter(kind="compensation").count() == 1
    assert StaffAction.objects.filter(action="approve_compensation").count() == 1


def test_two_moderators_claiming_one_case_at_once_leave_one_owner(
    players: list[Any], moderator: Any, other_moderator: Any, settled_round: Any
) -> None:
    case = services.file_dispute(players[0], settled_round.pk, category="other", text="")
    _race(
        lambda: services.claim(moderator, case.pk), lambda: services.claim(other_moderator, case.pk)
    )
    assert StaffAction.objects.filter(action="claim").count() == 1
