"""What moderators see of table talk: a reported message's context, a round's talk."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from chat import services
from chat.models import Spectators
from games import services as games
from tests.moderation.conftest import play_round

pytestmark = pytest.mark.django_db


def test_the_case_page_shows_the_reported_message_among_its_context(
    client: Client, players: list[Any], table: Any, moderator: Any
) -> None:
    services.post_message(players[0], table.pk, text="<b>trước</b>")
    bad = services.post_message(players[1], table.pk, text="đồ ngốc")
    services.post_message(players[0], table.pk, text="sau")
    case = services.report_message(players[0], table.pk, bad.pk, "xúc phạm")
    client.force_login(moderator)
    page = client.get(reverse("moderation:case_detail", args=[case])).text
    evidence = page[page.index('data-testid="chat-evidence"') :]
    assert (
        evidence.index("&lt;b&gt;trước&lt;/b&gt;")
        < evidence.index("đồ ngốc")
        < evidence.index("sau")
    )
    assert 'data-testid="reported-line"' in evidence


def test_a_players_page_never_shows_the_evidence(
    client: Client, players: list[Any], table: Any
) -> None:
    bad = services.post_message(players[1], table.pk, text="đồ ngốc")
    case = services.report_message(players[0], table.pk, bad.pk, "")
    client.force_login(players[0])
    assert "chat-evidence" not in client.get(reverse("moderation:case_detail", args=[case])).text


def test_the_replay_shows_the_rounds_talk_in_time_order(
    client: Client, players: list[Any], moderator: Any
) -> None:
    other = games.create_table(players[2], name="Bàn hai", stake=10)
    round_ = play_round(players[2:], other)  # they stand up after it: spectators now
    services.set_chat_settings(players[2], other.pk, spectators=Spectators.TALK)
    services.post_message(players[2], other.pk, text="hay quá")
    services.post_message(players[3], other.pk, text="ván nữa nhé")
    client.force_login(moderator)
    page = client.get(reverse("moderation:replay", args=[round_.pk])).text
    timeline = page[page.index('data-testid="timeline"') :]
    assert timeline.index('data-kind="settled"') < timeline.index("hay quá")
    assert timeline.index("hay quá") < timeline.index("ván nữa nhé")
