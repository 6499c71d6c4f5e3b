"""Filing a dispute or a report: who, when, and how often."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from moderation import services
from moderation.errors import ModerationError, NotFound
from moderation.models import Dispute
from tests.support.played import deal_for_two

pytestmark = pytest.mark.django_db


def test_a_participant_can_dispute_a_finished_round_once_while_it_is_open(
    players: list[Any], moderator: Any, settled_round: Any
) -> None:
    first = services.file_dispute(players[0], settled_round.pk, category="disconnect", text="")
    with pytest.raises(ModerationError) as refused:
        services.file_dispute(players[0], settled_round.pk, category="other", text="")
    assert refused.value.code == "already_open"
    services.file_dispute(players[1], settled_round.pk, category="other", text="")  # binh too
    services.claim(moderator, first.pk)
    services.resolve(moderator, first.pk, outcome="rejected", resolution="Kết quả đúng.")
    services.file_dispute(players[0], settled_round.pk, category="other", text="again")
    assert Dispute.objects.filter(filed_by=players[0]).count() == 2


def test_a_dispute_after_the_window_is_refused_with_the_window_named(
    players: list[Any], settled_round: Any, settings: Any
) -> None:
    settings.MODERATION_DISPUTE_WINDOW_DAYS = 3
    later = settled_round.settled_at + timedelta(days=3, minutes=1)
    with pytest.raises(ModerationError) as refused:
        services.file_dispute(players[0], settled_round.pk, category="other", text="", now=later)
    assert refused.value.code == "window_closed"
    assert "3" in refused.value.message


def test_only_players_of_the_round_can_dispute_it(players: list[Any], settled_round: Any) -> None:
    with pytest.raises(NotFound):
        services.file_dispute(players[3], settled_round.pk, category="other", text="")


def test_a_round_still_being_played_cannot_be_disputed(players: list[Any], table: Any) -> None:
    round_ = deal_for_two(players, table)
    with pytest.raises(ModerationError) as refused:
        services.file_dispute(players[0], round_.pk, category="other", text="")
    assert refused.value.code == "round_not_finished"


def test_the_form_shows_a_refusal_as_a_message_and_changes_nothing(
    client: Any, players: list[Any], settled_round: Any
) -> None:
    client.force_login(players[0])
    url = reverse("moderation:file_dispute", args=[settled_round.pk])
    response = client.post(url, {"category": "nonsense", "text": ""}, follow=True)
    assert response.status_code == 200
    assert not Dispute.objects.exists()
    assert [m.message for m in response.context["messages"]]


def test_a_player_can_report_an_opponent_of_a_round_they_played(
    client: Any, players: list[Any], settled_round: Any
) -> None:
    client.force_login(players[0])
    url = reverse("moderation:report_player", args=[players[1].pk])
    client.post(url, {"round": settled_round.pk, "category": "collusion", "text": "Xả chip"})
    report = Dispute.objects.get()
    assert (report.kind, report.reported_user, report.table_id) == (
        "report",
        players[1],
        settled_round.table_id,
    )
    with pytest.raises(NotFound):  # dung did not play that round
        services.report_player(
            players[3], players[1].pk, category="other", text="x", round_id=settled_round.pk
        )
    with pytest.raises(ModerationError):
        services.report_player(players[0], players[0].pk, category="other", text="x")


def test_a_suspension_is_audited_and_shown_to_the_user(
    client: Any, players: list[Any], moderator: Any
) -> None:
    services.suspend(moderator, players[1].pk, hours=48, reason="Chửi bới")
    players[1].refresh_from_db()
    assert players[1].suspended_until > timezone.now() + timedelta(hours=47)
    client.force_login(players[1])
    page = client.get(reverse("inbox")).content.decode()
    assert "Chửi bới" in page
    services.lift_suspension(moderator, players[1].pk, reason="Đã xin lỗi")
    players[1].refresh_from_db()
    assert players[1].suspended_until is None
    from moderation.models import StaffAction

    suspended, lifted = StaffAction.objects.order_by("pk")
    assert (suspended.before["until"], suspended.after["reason"]) == (None, "Chửi bới")
    assert lifted.before["reason"] == "Chửi bới" and lifted.after["until"] is None
