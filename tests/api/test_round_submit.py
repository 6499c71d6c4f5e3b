"""round_submit has the socket's guarantees: the same refusals and deadline, a resend that
changes nothing, drafts played at the deadline."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Round, RoundEvent, RoundPlayer, Table
from tests.support.arranging import naive_arrangement
from tests.support.played import deal_for_two

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealt(players, table):  # type: ignore[no-untyped-def]
    return deal_for_two(players, table)


def test_a_resent_submission_changes_nothing_and_gets_the_same_answer(
    players, dealt, token_for, api_client
) -> None:
    client = api_client(token_for(players[1], "play"))
    mine = RoundPlayer.objects.get(round=dealt, user=players[1])
    body = {"chi": naive_arrangement(mine.cards), "ref": 7}
    first = client.post(f"/rounds/{dealt.pk}/submit", body)
    version = Table.objects.get(pk=dealt.table_id).version
    events = RoundEvent.objects.filter(round=dealt).count()
    again = client.post(f"/rounds/{dealt.pk}/submit", body)
    assert first.status_code == again.status_code == 200
    assert (
        first.json() == again.json() == {"round": dealt.pk, "draft": False, "ref": 7, "foul": False}
    )
    assert Table.objects.get(pk=dealt.table_id).version == version
    assert RoundEvent.objects.filter(round=dealt).count() == events


def test_a_forged_card_is_refused_with_the_sockets_code_and_changes_nothing(
    players, dealt, token_for, api_client
) -> None:
    mine = RoundPlayer.objects.get(round=dealt, user=players[1])
    theirs = RoundPlayer.objects.get(round=dealt, user=players[0])
    chi = naive_arrangement(mine.cards)
    chi[2][0] = theirs.cards[0]
    response = api_client(token_for(players[1], "play"), "vi").post(
        f"/rounds/{dealt.pk}/submit", {"chi": chi}
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "card_not_dealt"
    assert response["Content-Language"] == "vi"
    mine.refresh_from_db()
    assert mine.arrangement is None


def test_after_the_deadline_a_submission_is_too_late(players, dealt, token_for, api_client) -> None:
    Round.objects.filter(pk=dealt.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    mine = RoundPlayer.objects.get(round=dealt, user=players[1])
    response = api_client(token_for(players[1], "play")).post(
        f"/rounds/{dealt.pk}/submit", {"chi": naive_arrangement(mine.cards)}
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "too_late"


def test_a_stale_version_is_refused(players, dealt, token_for, api_client) -> None:
    mine = RoundPlayer.objects.get(round=dealt, user=players[1])
    response = api_client(token_for(players[1], "play")).post(
        f"/rounds/{dealt.pk}/submit", {"chi": naive_arrangement(mine.cards), "version": 0}
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "stale_version"


def test_a_draft_is_kept_without_a_submission(players, dealt, token_for, api_client) -> None:
    mine = RoundPlayer.objects.get(round=dealt, user=players[1])
    chi = naive_arrangement(mine.cards)
    response = api_client(token_for(players[1], "play")).post(
        f"/rounds/{dealt.pk}/submit", {"chi": chi, "draft": True}
    )
    assert response.status_code == 200 and response.json()["draft"] is True
    mine.refresh_from_db()
    assert mine.draft == chi and mine.arrangement is None and mine.submitted_at is None


def test_someone_not_in_the_round_cannot_submit(players, dealt, token_for, api_client) -> None:
    response = api_client(token_for(players[2], "play")).post(
        f"/rounds/{dealt.pk}/submit", {"chi": [["AS"] * 5, ["KS"] * 5, ["QS"] * 3]}
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_in_round"
