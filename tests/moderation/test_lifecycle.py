"""A dispute from filing to resolution: claim, replay, compensate, resolve."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from ledger import selectors as ledger_selectors
from ledger.audit import run_checks
from ledger.models import Transfer
from moderation import services
from moderation.models import Dispute, StaffAction
from notices import services as notices
from notices.models import Notification

pytestmark = pytest.mark.django_db


def test_a_dispute_goes_from_filing_to_a_compensated_resolution(
    client: Any, players: list[Any], moderator: Any, settled_round: Any
) -> None:
    an = players[0]
    balance_before = ledger_selectors.balance(an)

    client.force_login(an)
    response = client.post(
        reverse("moderation:file_dispute", args=[settled_round.pk]),
        {"category": "wrong_result", "text": "Chi 2 của tôi thắng mà!"},
    )
    case = Dispute.objects.get()
    assert response.status_code == 302
    assert (case.status, case.filed_by, case.round) == ("open", an, settled_round)

    client.force_login(moderator)
    assert str(case.pk) in client.get(reverse("moderation:queue")).content.decode()
    client.post(reverse("moderation:claim", args=[case.pk]))
    case.refresh_from_db()
    assert (case.status, case.moderator) == ("in_review", moderator)

    replay = client.get(reverse("moderation:replay", args=[settled_round.pk]), {"settle_again": 1})
    page = replay.content.decode()
    for rp in settled_round.players.all():
        assert " ".join(rp.cards) in page  # every player's dealt cards, step by step
    assert replay.context["verified"] is True
    assert all(row.difference == 0 for row in replay.context["settle_again"])
    assert [s.kind for s in replay.context["steps"]][:2] == ["deal", "cards"]

    client.post(
        reverse("moderation:compensate", args=[case.pk]),
        {"amount": "300", "reason": "Lag at the showdown"},
    )
    compensation = case.compensations.get()
    assert compensation.status == "paid"
    transfer = Transfer.objects.get(pk=compensation.transfer_id)
    assert (transfer.kind, transfer.amount, transfer.actor) == ("compensation", 300, moderator)
    assert transfer.credit.user == an and transfer.debit.kind == "house"

    client.post(
        reverse("moderation:resolve", args=[case.pk]),
        {"outcome": "upheld", "resolution": "Bạn đã được bồi thường 300 xu."},
    )
    case.refresh_from_db()
    assert (case.status, case.outcome) == ("resolved", "upheld")

    assert ledger_selectors.balance(an) == balance_before + 300
    assert run_checks().ok
    assert list(
        Notification.objects.filter(user=an).order_by("pk").values_list("kind", flat=True)
    ) == ["case_filed", "case_claimed", "compensated", "case_resolved"]
    assert list(StaffAction.objects.order_by("pk").values_list("actor__username", "action")) == [
        ("mod", "claim"),
        ("mod", "view_replay"),
        ("mod", "compensate"),
        ("mod", "resolve"),
    ]
    resolved = StaffAction.objects.get(action="resolve")
    assert resolved.before["status"] == "in_review" and resolved.after["status"] == "resolved"

    client.force_login(an)
    header = client.get(reverse("moderation:my_cases")).content.decode()
    assert 'data-testid="inbox-unread" data-inbox-count>4<' in header  # the one inbox
    detail = client.get(reverse("moderation:case_detail", args=[case.pk])).content.decode()
    assert "Bạn đã được bồi thường 300 xu." in detail
    client.post(reverse("inbox"))
    assert notices.mark_notifications_read(an) == 0


def test_a_double_click_on_claim_claims_once(
    players: list[Any], moderator: Any, settled_round: Any
) -> None:
    case = services.file_dispute(players[0], settled_round.pk, category="other", text="")
    services.claim(moderator, case.pk)
    services.claim(moderator, case.pk)
    assert StaffAction.objects.filter(action="claim").count() == 1
