"""Saying something at a table: who may, how much, how fast, and what the table reads."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone, translation

from accounts import services as account_services
from chat import services
from chat.errors import ChatError
from chat.models import ChatMessage, Spectators
from games import services as games
from games.models import Table
from moderation import services as moderation

pytestmark = pytest.mark.django_db


def _refused(code: str, func: Any, *args: Any, **kwargs: Any) -> ChatError:
    with pytest.raises(ChatError) as refused:
        func(*args, **kwargs)
    assert refused.value.code == code
    return refused.value


def test_a_seated_player_talks_in_the_players_chat(players, table) -> None:
    message = services.post_message(players[1], table.pk, text="  chào   cả nhà \n ")
    assert (message.channel, message.text, message.raw) == ("players", "chào cả nhà", "")


def test_swear_words_are_masked_and_moderators_keep_what_was_typed(players, table) -> None:
    message = services.post_message(players[1], table.pk, text="đm thua rồi")
    assert (message.text, message.raw) == ("** thua rồi", "đm thua rồi")


def test_the_host_can_turn_the_filter_off_at_a_private_table_only(players, table) -> None:
    _refused("chat_forbidden", services.set_chat_settings, players[0], table.pk, word_filter=False)
    Table.objects.filter(pk=table.pk).update(is_private=True)
    _refused("chat_forbidden", services.set_chat_settings, players[1], table.pk, word_filter=False)
    services.set_chat_settings(players[0], table.pk, word_filter=False)
    assert services.post_message(players[1], table.pk, text="đm thua rồi").text == "đm thua rồi"


def test_the_acting_host_chooses_when_the_creator_has_left(players, table) -> None:
    games.stand(players[0])  # Bình, seated longest, is the host now (as social defines it)
    _refused("chat_forbidden", services.set_chat_settings, players[0], table.pk, spectators="own")
    services.set_chat_settings(players[1], table.pk, spectators=Spectators.OWN)


def test_markup_is_kept_as_plain_text_and_invisible_characters_are_dropped(players, table) -> None:
    said = "<script>alert(1)</script>\u202e<b>hi</b>\x07"
    message = services.post_message(players[1], table.pk, text=said)
    assert message.text == "<script>alert(1)</script><b>hi</b>"


def test_a_message_over_200_characters_is_refused(players, table) -> None:
    services.post_message(players[1], table.pk, text="a" * 200)
    _refused("chat_too_long", services.post_message, players[1], table.pk, text="a" * 201)
    _refused("chat_empty", services.post_message, players[1], table.pk, text=" \u200b ")


@pytest.mark.parametrize("said", ["fu\u200dck", "f\u0443ck", "ｆｕｃｋ"])
def test_a_disguised_swear_word_is_masked_and_moderators_see_it_as_typed(
    players, table, said: str
) -> None:
    message = services.post_message(players[1], table.pk, text=said)
    assert message.text == "****"
    assert message.raw  # what moderators see: the word, as the policy kept it


@pytest.mark.parametrize("said", ["\u3164", "\u2800\u2800", " \u3164 \u115f "])
def test_a_message_of_blank_looking_characters_is_refused(players, table, said: str) -> None:
    _refused("chat_empty", services.post_message, players[1], table.pk, text=said)
    assert not ChatMessage.objects.exists()


def test_a_letter_with_199_combining_accents_is_refused(players, table) -> None:
    _refused("text_marks", services.post_message, players[1], table.pk, text="a" + "\u0301" * 199)
    assert not ChatMessage.objects.exists()


def test_vietnamese_with_every_tone_is_said_as_typed(players, table) -> None:
    said = "Ừ, để tớ xếp lại chi giữa: cù lũ ăn chắc, mậu binh rồi!"
    assert services.post_message(players[1], table.pk, text=said).text == said


@override_settings(CHAT_RATE_LIMIT=5, CHAT_RATE_WINDOW_SECONDS=10)
def test_the_sixth_message_in_ten_seconds_is_refused(players, table) -> None:
    for n in range(5):
        services.post_message(players[1], table.pk, text=f"tin {n}")
    _refused("chat_rate_limited", services.post_message, players[1], table.pk, text="tin 6")
    _refused("chat_rate_limited", services.react, players[1], table.pk, "laugh")
    services.post_message(players[0], table.pk, text="người khác vẫn nói được")
    assert ChatMessage.objects.filter(sender=players[1]).count() == 5


def test_a_quick_phrase_is_sent_by_id(players, table) -> None:
    message = services.post_message(players[1], table.pk, phrase="good_luck")
    assert (message.phrase, message.text) == ("good_luck", "")
    _refused("chat_unknown_phrase", services.post_message, players[1], table.pk, phrase="nope")


def test_spectators_read_but_do_not_write_by_default(players, table) -> None:
    _refused("chat_forbidden", services.post_message, players[2], table.pk, text="xin chào")
    _refused("chat_forbidden", services.react, players[2], table.pk, "wow")


def test_spectators_talk_in_their_own_channel_when_the_host_says_so(players, table) -> None:
    services.set_chat_settings(players[0], table.pk, spectators=Spectators.OWN)
    message = services.post_message(players[2], table.pk, text="hay quá")
    assert message.channel == "spectators"
    _refused(
        "chat_forbidden", services.post_message, players[2], table.pk, text="x", channel="players"
    )
    _refused(
        "chat_forbidden",
        services.post_message,
        players[1],
        table.pk,
        text="x",
        channel="spectators",
    )


def test_spectators_join_the_players_chat_when_the_host_opens_it(players, table) -> None:
    services.set_chat_settings(players[0], table.pk, spectators=Spectators.TALK)
    assert services.post_message(players[2], table.pk, text="chào").channel == "players"


def test_a_suspended_user_cannot_talk(players, table) -> None:
    account_services.suspend_user(
        players[1], until=timezone.now() + timedelta(hours=1), reason="spam"
    )
    error = _refused("chat_forbidden", services.post_message, players[1], table.pk, text="hi")
    assert "tạm khóa" in error.message  # said in the user's language (Vietnamese here)
    with translation.override("en"):
        assert "suspended" in error.message


def test_a_user_muted_by_staff_cannot_talk_until_the_mute_ends(players, table, moderator) -> None:
    moderation.mute(moderator, players[1].pk, hours=2, reason="chửi bậy")
    _refused("chat_muted", services.post_message, players[1], table.pk, text="hi")
    _refused("chat_muted", services.react, players[1], table.pk, "sad")
    moderation.unmute(moderator, players[1].pk, reason="đã xin lỗi")
    services.post_message(players[1], table.pk, text="xin lỗi mọi người")
