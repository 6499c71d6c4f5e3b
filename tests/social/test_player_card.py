from __future__ import annotations

import pytest
from django.urls import reverse

from bots.services import create_bot
from social import selectors

pytestmark = pytest.mark.django_db


def test_a_player_card_offers_to_befriend_and_block(client, people) -> None:
    an, binh, _chi = people
    client.force_login(an)
    page = client.get(reverse("profiles:profile", kwargs={"user_id": binh.pk})).content.decode()
    assert reverse("social:request_friend", kwargs={"user_id": binh.pk}) in page
    assert reverse("social:block", kwargs={"user_id": binh.pk}) in page


def test_blocking_from_the_card_returns_to_it_and_offers_unblock(client, people) -> None:
    an, binh, _chi = people
    client.force_login(an)
    card = reverse("profiles:profile", kwargs={"user_id": binh.pk})
    response = client.post(reverse("social:block", kwargs={"user_id": binh.pk}), {"next": card})
    assert response["Location"] == card
    assert selectors.blocked_ids(an.pk) == {binh.pk}
    page = client.get(card).content.decode()
    assert reverse("social:unblock", kwargs={"user_id": binh.pk}) in page


def test_a_foreign_next_after_an_action_goes_to_the_friends_page(client, people) -> None:
    an, binh, _chi = people
    client.force_login(an)
    response = client.post(
        reverse("social:request_friend", kwargs={"user_id": binh.pk}),
        {"next": "https://evil.example/"},
    )
    assert response["Location"] == reverse("social:friends")


def test_a_bot_has_no_player_card(client, people) -> None:
    bot = create_bot()
    client.force_login(people[0])
    response = client.get(reverse("social:player", kwargs={"user_id": bot.user_id}))
    assert response.status_code == 404


@pytest.mark.parametrize("target", ["-1", "²", "social:friends", "/" + "x" * 3000])
def test_a_next_that_is_not_a_short_path_goes_to_the_friends_page(client, people, target) -> None:
    an, binh, _chi = people
    client.force_login(an)
    response = client.post(reverse("social:block", kwargs={"user_id": binh.pk}), {"next": target})
    assert response.status_code == 302
    assert response["Location"] == reverse("social:friends")


def test_the_old_card_address_moves_permanently_to_the_players_one_page(client, people) -> None:
    an, binh, _chi = people
    client.force_login(an)
    response = client.get(reverse("social:player", kwargs={"user_id": binh.pk}))
    assert response.status_code == 301
    assert response["Location"] == reverse("profiles:profile", kwargs={"user_id": binh.pk})


def test_the_players_page_says_they_are_blocked_and_links_to_my_friends(client, people) -> None:
    an, binh, _chi = people
    client.force_login(an)
    client.post(reverse("social:block", kwargs={"user_id": binh.pk}))
    page = client.get(reverse("profiles:profile", kwargs={"user_id": binh.pk})).content.decode()
    assert "Bạn đã chặn người chơi này" in page
    assert reverse("social:friends") in page
