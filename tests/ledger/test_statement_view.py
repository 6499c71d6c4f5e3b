from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.views import STATEMENT_PAGE_SIZE


@pytest.fixture
def client_of(player: Any) -> Client:
    client = Client()
    client.force_login(player)
    return client


def test_the_statement_lists_movements_newest_first_with_the_running_balance(
    client_of: Client, player: Any, other_player: Any
) -> None:
    services.hold(9, player, 400)
    services.hold(9, other_player, 400)
    services.settle_round(9, {player.pk: 400, other_player.pk: -400})
    page = client_of.get(reverse("ledger:statement"))
    assert page.status_code == 200
    rows = [(p.transfer.kind, p.delta, p.balance_after) for p in page.context["page"]]
    assert rows == [
        ("settle", 800, 10_400),
        ("hold", -400, 9_600),
        ("signup_grant", 10_000, 10_000),
    ]
    assert "ván #9" in page.content.decode()


def test_the_statement_filters_by_kind(client_of: Client, player: Any) -> None:
    services.claim_daily_bonus(player)
    page = client_of.get(reverse("ledger:statement"), {"kind": "daily_bonus"})
    assert [p.transfer.kind for p in page.context["page"]] == ["daily_bonus"]
    unknown = client_of.get(reverse("ledger:statement"), {"kind": "nonsense"})
    assert len(unknown.context["page"]) == 2


def test_the_statement_is_paginated(client_of: Client, player: Any, staff: Any) -> None:
    for n in range(STATEMENT_PAGE_SIZE + 5):
        services.adjust_balance(player, 1, reason=f"test {n}", actor=staff)
    first = client_of.get(reverse("ledger:statement"))
    second = client_of.get(reverse("ledger:statement"), {"page": 2})
    assert len(first.context["page"]) == STATEMENT_PAGE_SIZE
    assert len(second.context["page"]) == 6
    assert second.context["page"][5].transfer.kind == "signup_grant"


def test_a_visitor_must_log_in_to_see_a_statement(client: Client) -> None:
    response = client.get(reverse("ledger:statement"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_the_header_shows_the_balance_and_the_bonus_button(client_of: Client) -> None:
    page = client_of.get(reverse("home"))
    html = page.content.decode()
    assert 'data-testid="header-balance"' in html
    assert "10.000 xu" in html  # Vietnamese grouping by default
    assert 'data-testid="daily-bonus"' in html


def test_the_profile_shows_the_real_balance(client_of: Client) -> None:
    page = client_of.get(reverse("accounts:profile"))
    assert "10.000 xu" in page.content.decode()
    assert reverse("ledger:statement") in page.content.decode()


def test_english_pages_group_thousands_with_commas(make_user: Any) -> None:
    reader = make_user("english_reader", language="en")
    client = Client()
    client.force_login(reader)
    html = client.get(reverse("ledger:statement")).content.decode()
    assert "10,000 xu" in html
    assert "Sign-up grant" in html
