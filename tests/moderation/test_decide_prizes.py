"""A moderator decides a tournament's held prizes (``moderation.services.decide_prizes``):
release or return the buy-ins, with a reason, once, in the audit log, every entrant told;
never for a tournament they played in."""

from __future__ import annotations

from typing import Any

import pytest

from ledger import selectors as ledger_selectors
from ledger import services as ledger
from moderation import services
from moderation.errors import Forbidden, ModerationError, NotFound
from moderation.models import ActionKind, StaffAction
from notices.models import Notification, NotificationKind

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

TOURNAMENT = 41


@pytest.fixture
def held(players: list[Any]) -> Any:
    """Four buy-ins of 500 into tournament 41, the pool held with players[0] first."""
    for user in players:
        ledger.buy_in(TOURNAMENT, user, 500)
    hold = ledger.hold_prizes(
        TOURNAMENT,
        {players[0].pk: 2_000},
        findings=[{"signal": "fouls", "users": [players[1].pk], "fouls": 5, "rounds": 5}],
        title="Giải tối",
        url=f"/tournaments/{TOURNAMENT}/",
    )
    services.notify_prize_hold(TOURNAMENT)
    return hold


def test_every_entrant_is_told_once_that_the_prizes_are_under_review(players, held):
    assert services.notify_prize_hold(TOURNAMENT) == 0  # a second notice tells nobody again
    notes = Notification.objects.filter(kind=NotificationKind.PRIZES_HELD)
    assert sorted(notes.values_list("user_id", flat=True)) == sorted(p.pk for p in players)
    assert "Giải tối" in notes.first().message  # type: ignore[union-attr]


def test_releasing_pays_the_prize_writes_the_audit_and_tells_everyone(players, held, moderator):
    decision, new = services.decide_prizes(
        moderator, TOURNAMENT, decision="release", reason="Đã kiểm tra: bạn học cùng lớp"
    )
    assert new and decision.paid == {str(players[0].pk): 2_000}
    assert ledger_selectors.balance(players[0]) == 10_000 - 500 + 2_000
    action = StaffAction.objects.get(action=ActionKind.RELEASE_PRIZES)
    assert (action.actor, action.reason, action.target_type) == (
        moderator,
        "Đã kiểm tra: bạn học cùng lớp",
        "ledger.prizehold",
    )
    assert action.after == {"outcome": "released", "paid": {str(players[0].pk): 2_000}}
    assert Notification.objects.filter(kind=NotificationKind.PRIZES_RELEASED).count() == 4


def test_a_second_click_decides_nothing_more_and_the_other_decision_is_refused(
    players, held, moderator, other_moderator
):
    services.decide_prizes(moderator, TOURNAMENT, decision="return", reason="thông đồng")
    again, new = services.decide_prizes(
        other_moderator, TOURNAMENT, decision="return", reason="lần hai"
    )
    assert not new and again.actor == moderator
    with pytest.raises(ModerationError) as refused:
        services.decide_prizes(moderator, TOURNAMENT, decision="release", reason="đổi ý")
    assert refused.value.code == "hold_decided"
    assert StaffAction.objects.filter(action=ActionKind.RETURN_BUY_INS).count() == 1
    assert [ledger_selectors.balance(p) for p in players] == [10_000] * 4
    assert Notification.objects.filter(kind=NotificationKind.BUY_INS_RETURNED).count() == 4


def test_a_reason_a_real_choice_and_a_hold_are_required(held, moderator):
    with pytest.raises(ModerationError) as no_reason:
        services.decide_prizes(moderator, TOURNAMENT, decision="release", reason="  ")
    assert no_reason.value.code == "reason_required"
    with pytest.raises(ModerationError):
        services.decide_prizes(moderator, TOURNAMENT, decision="keep", reason="?")
    with pytest.raises(NotFound):
        services.decide_prizes(moderator, 999, decision="release", reason="?")
    assert ledger_selectors.prize_review(TOURNAMENT)["status"] == "pending"  # type: ignore[index]


def test_players_and_entrants_do_not_decide_and_the_refusal_is_logged(players, held, make_user):
    from django.contrib.auth.models import Group

    from accounts.roles import MODERATORS

    with pytest.raises(Forbidden):
        services.decide_prizes(players[2], TOURNAMENT, decision="release", reason="cho tôi")
    players[1].groups.add(Group.objects.get_or_create(name=MODERATORS)[0])
    with pytest.raises(Forbidden) as refused:
        services.decide_prizes(players[1], TOURNAMENT, decision="return", reason="của tôi")
    assert refused.value.code == "conflict_of_interest"
    assert StaffAction.objects.filter(action=ActionKind.REFUSED, actor=players[1]).exists()
    assert ledger_selectors.prize_review(TOURNAMENT)["status"] == "pending"  # type: ignore[index]


def test_the_moderators_page_lists_the_hold_with_its_signals(client, players, held, moderator):
    client.force_login(moderator)
    page = client.get("/moderation/prizes/").content.decode()
    assert "Giải tối" in page and "binh lủng" in page and players[1].username in page
    client.force_login(players[0])
    assert client.get("/moderation/prizes/").status_code == 404
