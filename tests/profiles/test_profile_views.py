"""The public profile, the statistics page and the display name."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from bots.services import create_bot
from profiles import services
from tests.profiles.conftest import chi_pair

pytestmark = pytest.mark.django_db


def test_a_profile_is_public_and_links_to_recent_round_pages(
    client: Any, history: Any, four: list[Any]
) -> None:
    round_ = history.round(four[:2], [10, -10], pairs=[chi_pair(0, 1, [0, 0, 1])])
    services.record_settled_rounds()
    page = client.get(reverse("profiles:profile", kwargs={"user_id": four[0].pk}))
    assert page.status_code == 200
    text = page.content.decode()
    assert reverse("games:round_detail", kwargs={"round_id": round_.pk}) in text
    assert 'data-testid="avatar"' in text


def test_a_private_tables_round_is_not_linked_from_a_profile(
    client: Any, history: Any, four: list[Any]
) -> None:
    round_ = history.round(four[:2], [10, -10], private=True)
    services.record_settled_rounds()
    text = client.get(reverse("profiles:profile", kwargs={"user_id": four[0].pk})).content
    assert reverse("games:round_detail", kwargs={"round_id": round_.pk}).encode() not in text


def test_an_unknown_player_has_no_profile(client: Any, db: None) -> None:
    assert client.get(reverse("profiles:profile", kwargs={"user_id": 999999})).status_code == 404


def test_my_statistics_page_draws_the_charts_as_svg(
    client: Any, history: Any, four: list[Any]
) -> None:
    history.round(four[:2], [10, -10])
    services.record_settled_rounds()
    client.force_login(four[0])
    text = client.get(reverse("profiles:my_stats")).content.decode()
    assert 'data-testid="net-chart"' in text and "<polyline" in text
    assert text.count('class="bar"') == 30
    assert "<script>" not in text


def test_my_statistics_need_a_login(client: Any, db: None) -> None:
    response = client.get(reverse("profiles:my_stats"))
    assert response.status_code == 302


def test_a_display_name_is_unique_ignoring_case(client: Any, make_user: Any) -> None:
    make_user("an", display_name="Anh Ba")
    binh = make_user("binh")
    client.force_login(binh)
    response = client.post(
        reverse("accounts:profile"), {"display_name": "anh ba", "language": "vi"}
    )
    assert response.status_code == 200  # the form again, with the error
    binh.refresh_from_db()
    assert binh.display_name == ""


def test_a_display_name_cannot_be_another_players_username(client: Any, make_user: Any) -> None:
    make_user("an")
    binh = make_user("binh")
    client.force_login(binh)
    client.post(reverse("accounts:profile"), {"display_name": "AN", "language": "vi"})
    binh.refresh_from_db()
    assert binh.display_name == ""


def test_a_person_may_take_a_name_a_bot_uses(client: Any, make_user: Any) -> None:
    bot = create_bot()
    assert bot.user.display_name
    lan = make_user("lan_moi")
    client.force_login(lan)
    client.post(
        reverse("accounts:profile"), {"display_name": bot.user.display_name, "language": "vi"}
    )
    lan.refresh_from_db()
    assert lan.display_name == bot.user.display_name  # the bot wears its badge everywhere


def test_a_display_name_loses_repeated_spaces_and_refuses_invisible_characters(
    client: Any, make_user: Any
) -> None:
    an = make_user("an")
    client.force_login(an)
    client.post(reverse("accounts:profile"), {"display_name": "  Anh   Ba ", "language": "vi"})
    an.refresh_from_db()
    assert an.display_name == "Anh Ba"
    client.post(reverse("accounts:profile"), {"display_name": "Anh\u202eBa", "language": "vi"})
    an.refresh_from_db()
    assert an.display_name == "Anh Ba"


def test_keeping_my_own_name_in_other_case_is_allowed(client: Any, make_user: Any) -> None:
    an = make_user("an", display_name="Anh Ba")
    client.force_login(an)
    client.post(reverse("accounts:profile"), {"display_name": "ANH BA", "language": "vi"})
    an.refresh_from_db()
    assert an.display_name == "ANH BA"


def test_a_recent_rounds_page_opens_for_a_player_who_was_not_there(
    client: Any, history: Any, four: list[Any]
) -> None:
    round_ = history.round(four[:2], [10, -10], pairs=[chi_pair(0, 1, [0, 0, 1])])
    services.record_settled_rounds()
    client.force_login(four[3])
    page = client.get(reverse("games:round_detail", kwargs={"round_id": round_.pk}))
    assert page.status_code == 200


def test_the_lobby_links_each_tables_host_to_their_profile(client: Any, make_user: Any) -> None:
    from games import services as games

    host = make_user("an", display_name="Anh Ba")
    games.create_table(host, name="Bàn vui", stake=10)
    client.force_login(make_user("binh"))
    page = client.get(reverse("games:lobby")).content.decode()
    assert reverse("profiles:profile", kwargs={"user_id": host.pk}) in page


def test_the_header_links_my_name_to_my_profile_and_the_boards(client: Any, make_user: Any) -> None:
    an = make_user("an")
    client.force_login(an)
    page = client.get(reverse("games:lobby")).content.decode()
    assert reverse("profiles:profile", kwargs={"user_id": an.pk}) in page
    assert reverse("profiles:leaderboards") in page


def test_a_player_can_send_a_friend_request_from_anothers_profile(
    client: Any, four: list[Any]
) -> None:
    client.force_login(four[0])
    url = reverse("profiles:profile", kwargs={"user_id": four[1].pk})
    text = client.get(url).content.decode()
    assert reverse("social:request_friend", args=[four[1].pk]) in text
    assert reverse("social:block", args=[four[1].pk]) in text
    client.post(reverse("social:request_friend", args=[four[1].pk]), {"next": url})
    assert reverse("social:cancel", args=[four[1].pk]) in client.get(url).content.decode()


def test_my_own_profile_offers_no_friend_or_block_button(client: Any, four: list[Any]) -> None:
    client.force_login(four[0])
    text = client.get(reverse("profiles:profile", kwargs={"user_id": four[0].pk})).content.decode()
    assert 'data-testid="player-actions"' not in text


def test_a_profile_lists_a_round_of_a_secret_duplicate_board_to_its_player_only(
    client: Any, four: list[Any]
) -> None:
    """Its result would tell a visitor how good a hand was they may still be dealt."""
    from games.services import duplicate
    from tests.support.duplicates import duplicate_table, play

    schedule = duplicate.create_schedule(name="Lặp", boards=2, created_by=four[0])
    round_ = play(duplicate_table(four[0], schedule), four[:2])
    services.record_settled_rounds()
    link = reverse("games:round_detail", kwargs={"round_id": round_.pk})
    url = reverse("profiles:profile", kwargs={"user_id": four[0].pk})
    assert link not in client.get(url).content.decode()  # a visitor
    client.force_login(four[3])
    assert link not in client.get(url).content.decode()
    client.force_login(four[0])
    assert link in client.get(url).content.decode()  # the player's own
    duplicate.close_schedule(schedule.pk)  # revealed: anyone may see it now
    client.force_login(four[3])
    assert link in client.get(url).content.decode()
