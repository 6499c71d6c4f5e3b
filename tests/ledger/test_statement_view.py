"""/ledger/statement/ and the daily bonus button in the header."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger import selectors

pytestmark = pytest.mark.django_db


def test_the_statement_lists_my_wallet_postings(client, make_user) -> None:  # type: ignore[no-untyped-def]
    user = make_user("an")
    client.force_login(user)
    page = client.get(reverse("ledger:statement")).content.decode()
    assert 'data-delta="10000"' in page


def test_the_daily_bonus_button_credits_once_a_day(client, make_user) -> None:  # type: ignore[no-untyped-def]
    user = make_user("an")
    client.force_login(user)
    assert "ledger/daily-bonus/" in client.get(reverse("ledger:statement")).content.decode()
    client.post(reverse("ledger:daily_bonus"), {"next": "/ledger/statement/"})
    assert selectors.balance(user) == 11_000
    again = client.post(reverse("ledger:daily_bonus"), follow=True)
    assert selectors.balance(user) == 11_000
    assert "ledger/daily-bonus/" not in again.content.decode()


def test_the_bonus_never_redirects_off_site(client, make_user) -> None:  # type: ignore[no-untyped-def]
    client.force_login(make_user("an"))
    response = client.post(reverse("ledger:daily_bonus"), {"next": "https://evil.example/"})
    assert response["Location"] == "/"
