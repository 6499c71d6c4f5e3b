"""The lobby: the home page of a player, opening a table, and quick join."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Seat, Table

pytestmark = pytest.mark.django_db


def test_the_home_page_of_a_player_is_the_lobby(client, players, table) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    page = client.get("/").content.decode()
    assert table.name in page
    assert 'id="create"' in page


def test_visitors_get_the_welcome_page(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/").content.decode()
    assert reverse("accounts:signup") in page


def test_opening_a_table_keeps_only_the_house_rules_filled_in(client, players) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    response = client.post(
        reverse("games:create_table"),
        {"name": "Bàn mới", "preset": "classic", "stake": "50", "seats": "3",
         "arrange_seconds": "45", "bonus_trips_chi3": "5"},
    )  # fmt: skip
    table = Table.objects.get(name="Bàn mới")
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", kwargs={"table_id": table.pk})
    assert table.rules_overrides == {"arrange_seconds": 45, "bonus": {"trips_chi3": 5}}
    assert table.rules.scoop_one == 2  # classic's own value, untouched


def test_house_rules_out_of_range_are_explained(client, players) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    response = client.post(
        reverse("games:create_table"),
        {"name": "Bàn", "preset": "portal", "stake": "50", "seats": "4", "reveal_seconds": "1"},
    )
    assert response.status_code == 400
    assert not Table.objects.filter(name="Bàn").exists()
    assert 'id="id_reveal_seconds"' in response.content.decode()


def test_quick_join_sits_at_a_table_with_a_free_seat(client, players, table) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[1])
    response = client.post(reverse("games:quick_join"))
    assert response["Location"] == reverse("games:table", kwargs={"table_id": table.pk})
    assert Seat.objects.get(user=players[1]).table == table


def test_quick_join_without_a_table_says_so(client, players) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[1])
    response = client.post(reverse("games:quick_join"), follow=True)
    assert not Seat.objects.filter(user=players[1]).exists()
    assert response.redirect_chain[-1][0] == reverse("games:lobby")


# --- Words: what the lobby's buttons and presets mean, without a hover --------------------


def _as(client, player, language: str) -> str:  # type: ignore[no-untyped-def]
    player.preferred_language = language
    player.save(update_fields=["preferred_language"])
    client.force_login(player)
    return client.get(reverse("games:lobby")).content.decode()


def test_quick_play_and_quick_join_say_what_they_do_on_the_page(client, players) -> None:  # type: ignore[no-untyped-def]
    page = _as(client, players[0], "vi")
    for button, help_id, words in [
        ("quick-play", "quick-play-help", "Chơi với máy: chia bài ngay"),
        ("quick-join", "quick-join-help", "Vào bàn đông người nhất còn ghế trống"),
    ]:
        assert f'id="{button}" aria-describedby="{help_id}"' in page
        assert f'id="{help_id}">{words}</small>' in page
    assert 'title="' not in page.split('id="quick-play"')[1].split(">")[0]


@pytest.mark.parametrize(
    ("language", "portal", "classic"),
    [("vi", "Phổ biến", "Cổ điển"), ("en", "Popular", "Classic")],
)
def test_the_presets_have_clear_names_in_both_languages(  # type: ignore[no-untyped-def]
    client, players, table, language, portal, classic
) -> None:
    page = _as(client, players[0], language)
    assert portal in page and classic in page
    assert "Cổng game" not in page and "Portal" not in page


def test_the_lobby_and_the_create_form_link_to_how_to_play(client, players) -> None:  # type: ignore[no-untyped-def]
    page = _as(client, players[0], "vi")
    rules = reverse("games:rules")
    assert f'href="{rules}" data-testid="lobby-rules-link"' in page
    assert 'data-testid="form-rules-link"' in page


def test_the_create_form_shows_the_rules_of_each_preset(client, players) -> None:  # type: ignore[no-untyped-def]
    from games.rules import Rules

    page = _as(client, players[0], "en")
    box = page[page.index('data-testid="effective-rules"') :]
    for name in ("portal", "classic"):
        rules = Rules.preset(name)
        facts = box[box.index(f'data-preset="{name}"') :]
        facts = re.sub(r"<[^>]+>", "", facts[: facts.index("</div>")])  # the words as read
        assert f"sập 3 chi ×{rules.scoop_one}, sập làng ×{rules.scoop_all}" in facts
        assert f"{len(rules.instant)} kinds of mậu binh" in facts


def test_the_table_page_links_to_how_to_play_and_offers_disputes_and_reports(  # type: ignore[no-untyped-def]
    client, players, table
) -> None:
    client.force_login(players[0])
    page = client.get(reverse("games:table", kwargs={"table_id": table.pk})).content.decode()
    assert f'href="{reverse("games:rules")}#preset-portal"' in page
    assert '"dispute": "/moderation/rounds/0/dispute/"' in page
    assert '"report": "/moderation/report/0/"' in page


def test_the_table_page_names_bonuses_in_the_readers_language(client, players, table) -> None:  # type: ignore[no-untyped-def]
    """The summary's bonus names come from games.rules, in English for an English reader."""
    players[0].preferred_language = "en"
    players[0].save(update_fields=["preferred_language"])
    client.force_login(players[0])
    page = client.get(reverse("games:table", kwargs={"table_id": table.pk})).content.decode()
    assert '"quads_chi1": "Four of a kind in chi 1"' in page
    assert "Tứ quý chi đầu" not in page
