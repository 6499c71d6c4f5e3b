from __future__ import annotations

import re
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


def _lines(page: Any) -> list[tuple[str, int | None, int, int]]:
    return [
        (line.kind, line.round_id, line.net, line.balance_after) for line in page.context["lines"]
    ]


def test_the_statement_shows_one_line_per_round_with_its_net_result(
    client_of: Client, player: Any, other_player: Any
) -> None:
    services.hold(9, player, 400)
    services.hold(9, other_player, 400)
    services.settle_round(9, {player.pk: 400, other_player.pk: -400})
    page = client_of.get(reverse("ledger:statement"))
    assert page.status_code == 200
    assert _lines(page) == [("round", 9, 400, 10_400), ("signup_grant", None, 10_000, 10_000)]
    html = page.content.decode()
    assert "Ván #9" in html
    # The hold and the settlement are there on demand, not as a loss and a gain.
    details = html[html.index("<details") : html.index("</details>")]
    assert "Giữ xu cược ván" in details and "Thanh toán ván" in details


def test_a_round_being_played_counts_its_hold_as_yours_and_names_it_held(
    client_of: Client, player: Any, other_player: Any
) -> None:
    from ledger import selectors

    before = selectors.balance(player)
    services.hold(9, player, 400)
    page = client_of.get(reverse("ledger:statement"))
    assert page.context["in_play"] == 400
    assert 'data-testid="statement-in-play"' in page.content.decode()
    home = client_of.get(reverse("home")).content.decode()
    # Issue 25: a hold is not money gone. The header's total still counts it, and says
    # which part is held, never "+ 400 in play" beside a balance that dropped.
    total = re.search(r'data-testid="header-balance"[^>]*>([^<]*)<', home)
    assert total and total.group(1) == f"{before:,} xu".replace(",", ".")
    in_play = re.search(r'<span class="in-play" data-testid="header-in-play"[^>]*>([^<]*)<', home)
    assert in_play and in_play.group(1) == "gồm 400 đang giữ"
    assert "hidden" not in in_play.group(0)


def test_the_filter_offers_a_player_only_their_own_kinds(client_of: Client, player: Any) -> None:
    services.claim_daily_bonus(player)
    page = client_of.get(reverse("ledger:statement"), {"kind": "daily_bonus"})
    assert [line.kind for line in page.context["lines"]] == ["daily_bonus"]
    offered = [value for value, _label in page.context["kinds"]]
    assert "rounds" in offered
    assert not {"bot_topup", "house_funding", "fee", "hold", "settle"} & set(offered)
    for hidden in ("bot_topup", "nonsense"):
        unknown = client_of.get(reverse("ledger:statement"), {"kind": hidden})
        assert len(unknown.context["lines"]) == 2  # every movement


def test_the_rounds_filter_keeps_rounds_only(
    client_of: Client, player: Any, other_player: Any
) -> None:
    services.hold(9, player, 400)
    services.hold(9, other_player, 400)
    services.settle_round(9, {player.pk: -400, other_player.pk: 400})
    page = client_of.get(reverse("ledger:statement"), {"kind": "rounds"})
    assert _lines(page) == [("round", 9, -400, 9_600)]


def test_the_statement_is_paginated(client_of: Client, player: Any, staff: Any) -> None:
    for n in range(STATEMENT_PAGE_SIZE + 5):
        services.adjust_balance(player, 1, reason=f"test {n}", actor=staff)
    first = client_of.get(reverse("ledger:statement"))
    second = client_of.get(reverse("ledger:statement"), {"page": 2})
    assert len(first.context["lines"]) == STATEMENT_PAGE_SIZE
    assert len(second.context["lines"]) == 6
    assert second.context["lines"][5].kind == "signup_grant"


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
