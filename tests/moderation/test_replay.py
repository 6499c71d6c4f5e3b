"""The moderators' replay: cards drawn as on the player pages, one name per player (bots too)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from bots import services as bots
from games.rules import card_name_vi, parse_card
from tests.moderation.conftest import play_round

pytestmark = pytest.mark.django_db


def _visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.fixture
def bot_round(players: list[Any], table: Any) -> Any:
    bot = bots.create_bot("normal")
    bots.fund(bot, bots.needed_balance(table))
    return play_round([players[0], bot.user], table)


def test_the_replay_names_a_bot_as_the_table_does(
    client: Client, moderator: Any, bot_round: Any
) -> None:
    bot = bot_round.players.get(user__is_bot=True).user
    client.force_login(moderator)
    text = _visible_text(client.get(reverse("moderation:replay", args=[bot_round.pk])).text)
    assert bot.display_name in text
    assert bot.username not in text  # "bot-7332335297" is not a name anyone saw at the table


def test_the_replay_draws_cards_instead_of_codes(
    client: Client, moderator: Any, bot_round: Any
) -> None:
    client.force_login(moderator)
    html = client.get(reverse("moderation:replay", args=[bot_round.pk])).text
    for rp in bot_round.players.all():
        for code in rp.cards:  # each dealt card as a picture named in the page's language
            assert f'aria-label="{card_name_vi(parse_card(code))}"' in html
        # No run of card codes ("AD 2S TS") is left as text for a person to decode.
        assert " ".join(rp.cards[:3]) not in _visible_text(html)


def test_amounts_in_the_replay_are_signed_and_grouped(
    client: Client, moderator: Any, bot_round: Any
) -> None:
    client.force_login(moderator)
    text = _visible_text(client.get(reverse("moderation:replay", args=[bot_round.pk])).text)
    assert not re.search(r"(?<![\w-])-\d", text), "a hyphen used as a minus sign"
    loser = min(bot_round.players.all(), key=lambda rp: rp.xu or 0)
    assert f"\u2212{-loser.xu}" in text


def test_the_replay_reads_its_rules_in_words_and_a_settled_rounds_players_as_done(
    client: Client, moderator: Any, bot_round: Any
) -> None:
    # Issue 25: the rules were a raw dict and the players of a settled round "đang chơi".
    client.force_login(moderator)
    html = client.get(reverse("moderation:replay", args=[bot_round.pk])).text
    facts = html.split('data-testid="rules-facts"')[1].split("</dl>")[0]
    assert "Bộ luật</dt><dd>Phổ biến" in facts and "sập 3 chi ×1" in facts
    assert "xếp bài 30 giây" in facts and "{" not in facts
    players = html.split("</table>")[0]
    assert "đã chơi hết ván" in players and "đang chơi" not in players
