from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from ledger import selectors


@pytest.fixture
def client_of(player: Any) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    return client


def _post_with_csrf(client: Client, url: str, data: dict[str, str]) -> Any:
    client.get(reverse("ledger:statement"))  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    return client.post(url, {**data, "csrfmiddlewaretoken": token})


def test_claiming_the_bonus_credits_it_and_hides_the_button(client_of: Client, player: Any) -> None:
    response = _post_with_csrf(client_of, reverse("ledger:daily_bonus"), {"next": "/"})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert selectors.balance(player) == 11_000
    home = client_of.get("/")
    assert 'data-testid="daily-bonus"' not in home.content.decode()


def test_claiming_twice_the_same_day_shows_an_error(client_of: Client, player: Any) -> None:
    _post_with_csrf(client_of, reverse("ledger:daily_bonus"), {})
    response = _post_with_csrf(client_of, reverse("ledger:daily_bonus"), {})
    assert [m.level_tag for m in get_messages(response.wsgi_request)][-1] == "error"
    page = client_of.get(reverse("ledger:statement"))
    assert "Bạn đã nhận thưởng hôm nay" in page.content.decode()
    assert selectors.balance(player) == 11_000


def test_the_bonus_needs_a_csrf_token(client_of: Client, player: Any) -> None:
    response = client_of.post(reverse("ledger:daily_bonus"))
    assert response.status_code == 403
    assert selectors.balance(player) == 10_000


def test_the_bonus_is_claimed_by_post_only(client_of: Client, player: Any) -> None:
    assert client_of.get(reverse("ledger:daily_bonus")).status_code == 405
    assert selectors.balance(player) == 10_000


def test_an_unsafe_next_address_is_ignored(client_of: Client) -> None:
    response = _post_with_csrf(
        client_of, reverse("ledger:daily_bonus"), {"next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("ledger:statement")
