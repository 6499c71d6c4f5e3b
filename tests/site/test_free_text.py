"""Every free-text field keeps what the text policy keeps (accounts.text): no bidi
override, no zero-width character, nothing blank-looking, on every write path."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from accounts import services as accounts
from games import services as games
from games.errors import GameError
from games.models import Table
from games.services import duplicate
from ledger import services as ledger
from ledger.errors import LedgerError
from moderation import services as moderation
from moderation.errors import ModerationError
from tests.moderation.conftest import _staff, play_round
from tests.support.played import quick_table
from tournaments.arena import services as arena
from tournaments.errors import TournamentError
from tournaments.sitandgo import services as tournaments

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

DISGUISED = "\u202eBàn\u200b VIP\u200c\u2066"  # right-to-left override, zero-width, isolates
SHOWN = "Bàn VIP"
BLANK = "\u3164\u3164\u2800"


@pytest.fixture
def players(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("an", "binh", "chi")]


def test_a_table_name_loses_its_bidi_override_and_zero_width_characters(players: list[Any]) -> None:
    table = games.create_table(players[0], name=DISGUISED, stake=10)
    assert table.name == SHOWN
    with pytest.raises(GameError) as refused:
        games.create_table(players[0], name=BLANK, stake=10)
    assert refused.value.code == "text_invisible"


def test_the_create_table_form_shows_why_a_blank_looking_name_is_refused(
    client: Any, players: list[Any]
) -> None:
    client.force_login(players[0])
    response = client.post(
        reverse("games:create_table"), {"name": BLANK, "preset": "portal", "stake": 10, "seats": 4}
    )
    assert response.status_code == 400
    assert not Table.objects.exists()
    assert "ký tự vô hình" in response.content.decode()


def test_a_duplicate_schedule_name_is_cleaned_the_same(players: list[Any]) -> None:
    schedule = duplicate.create_schedule(name=DISGUISED, boards=1)
    assert schedule.name == SHOWN
    with pytest.raises(GameError):
        duplicate.create_schedule(name=BLANK, boards=1)


def test_a_sit_and_go_name_is_cleaned_the_same(players: list[Any]) -> None:
    tournament = tournaments.create_sit_and_go(players[0], name=DISGUISED, players=4, buy_in=0)
    assert tournament.name == SHOWN
    with pytest.raises(TournamentError) as refused:
        tournaments.create_sit_and_go(players[1], name=BLANK, players=4, buy_in=0)
    assert refused.value.code == "text_invisible"


def test_an_arena_name_is_cleaned_the_same(players: list[Any]) -> None:
    created = arena.create_arena(players[0], name=DISGUISED, minutes=10, buy_in=0)
    assert created.name == SHOWN
    with pytest.raises(TournamentError):
        arena.create_arena(players[1], name="Z" + "\u0301" * 39, minutes=10, buy_in=0)


def test_the_tournament_form_shows_why_a_name_is_refused(client: Any, players: list[Any]) -> None:
    client.force_login(players[0])
    response = client.post(reverse("tournaments:list"), {"name": BLANK, "players": 4, "buy_in": 0})
    assert "ký tự vô hình" in response.content.decode()


def test_disputes_reports_and_staff_reasons_are_cleaned_and_keep_their_paragraphs(
    make_user: Any, players: list[Any]
) -> None:
    moderator = _staff(make_user, "mod", moderator=True)
    table = quick_table(players[0], name="Bàn")
    round_ = play_round(players, table)
    case = moderation.file_dispute(
        players[0], round_.pk, category="other", text="Chi 2\u202e sai\u200b.\r\n\r\n\r\nXem lại."
    )
    assert case.text == "Chi 2 sai.\n\nXem lại."
    report = moderation.report_player(
        players[0], players[1].pk, category="other", text="\u2800nói\u200d bậy", round_id=round_.pk
    )
    assert report.text == "nói bậy"
    with pytest.raises(ModerationError) as refused:
        moderation.report_player(
            players[0], players[1].pk, category="other", text=BLANK, round_id=round_.pk
        )
    assert refused.value.code == "text_invisible"
    moderation.claim(moderator, case.pk)
    resolved = moderation.resolve(
        moderator, case.pk, outcome="rejected", resolution="\u202eĐúng luật\u200b."
    )
    assert resolved.resolution == "Đúng luật."
    suspended = moderation.suspend(moderator, players[2].pk, hours=1, reason="Spam\u2066 chat")
    assert suspended.suspension_reason == "Spam chat"


def test_a_suspension_and_a_ledger_reason_refuse_blank_looking_text(
    make_user: Any, players: list[Any]
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from accounts.errors import AccountError

    with pytest.raises(AccountError) as refused:
        accounts.suspend_user(players[0], until=timezone.now() + timedelta(hours=1), reason=BLANK)
    assert refused.value.code == "text_invisible"
    admin = _staff(make_user, "admin", admin=True)
    with pytest.raises(LedgerError):
        ledger.adjust_balance(players[0], 100, reason=BLANK, actor=admin)
    adjusted = ledger.adjust_balance(players[0], 100, reason="\u202eLỗi\u200b chia", actor=admin)
    assert adjusted.reason == "Lỗi chia"
