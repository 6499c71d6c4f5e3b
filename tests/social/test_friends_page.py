from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from games import services as games
from social import selectors, services

pytestmark = pytest.mark.django_db


def test_a_request_sent_by_username_reaches_the_player(client, people) -> None:
    an, binh, _chi = people
    client.force_login(an)
    client.post(reverse("social:friends"), {"username": "BINH"})
    assert selectors.incoming_requests(binh).get().from_user == an


def test_an_unknown_username_is_told_in_vietnamese(client, people) -> None:
    client.force_login(people[0])
    page = client.post(reverse("social:friends"), {"username": "nobody"}, follow=True)
    assert "Không có người chơi nào tên này." in page.content.decode()


def test_the_list_shows_an_online_friend_at_a_table_with_join(client, people) -> None:
    an, binh, _chi = people
    services.accept_friend_request(binh, services.send_friend_request(an, binh).pk)
    table = games.open_table(an, name="Bàn An", stake=10)
    games.connected(an, table.pk, uuid.uuid4())  # a table socket of An's is open
    client.force_login(binh)
    page = client.get(reverse("social:friends")).content.decode()
    assert "Trực tuyến" in page
    assert "Bàn An" in page
    assert reverse("games:table", kwargs={"table_id": table.pk}) in page


def test_accepting_twice_from_two_tabs_shows_a_clear_message(client, people) -> None:
    an, binh, _chi = people
    request = services.send_friend_request(an, binh)
    client.force_login(binh)
    client.post(reverse("social:accept", kwargs={"request_id": request.pk}))
    page = client.post(reverse("social:accept", kwargs={"request_id": request.pk}), follow=True)
    assert "Lời mời kết bạn này không còn nữa." in page.content.decode()
    assert selectors.are_friends(an.pk, binh.pk)


def test_the_header_counts_unread_invitations(client, people) -> None:
    an, binh, _chi = people
    services.send_friend_request(an, binh)
    client.force_login(binh)
    page = client.get(reverse("social:friends")).content.decode()
    # One inbox (maubinh_site/inbox.py) counts them in the header.
    assert 'data-testid="inbox-unread" data-inbox-count>1<' in page
    client.post(reverse("inbox"))
    page = client.get(reverse("social:friends")).content.decode()
    assert 'data-testid="inbox-unread" data-inbox-count hidden>0<' in page
