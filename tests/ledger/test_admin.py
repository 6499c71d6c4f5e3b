from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.models import Account, Transfer


@pytest.fixture
def admin_client_(admin_user: Any) -> Client:
    client = Client()
    client.force_login(admin_user)
    return client


@pytest.fixture
def played(player: Any, other_player: Any, settings: Any) -> None:
    settings.HOUSE_FEE_PERCENT = "10"
    services.hold(42, player, 500)
    services.hold(42, other_player, 500)
    services.settle_round(42, {player.pk: 300, other_player.pk: -300})
    services.hold(43, player, 100)


@pytest.mark.parametrize("model", ["transfer", "account", "roundclosure", "ledgercheckrun"])
def test_admins_cannot_add_ledger_rows(admin_client_: Client, model: str) -> None:
    assert admin_client_.get(reverse(f"admin:ledger_{model}_add")).status_code == 403


def test_admins_can_view_but_not_change_or_delete_a_transfer(
    admin_client_: Client, player: Any
) -> None:
    grant = Transfer.objects.get(credit__user=player)
    change = reverse("admin:ledger_transfer_change", args=[grant.pk])
    page = admin_client_.get(change)
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert admin_client_.post(change, {"amount": 1}).status_code == 403
    delete = reverse("admin:ledger_transfer_delete", args=[grant.pk])
    assert admin_client_.post(delete, {"post": "yes"}).status_code == 403
    assert Transfer.objects.get(pk=grant.pk).amount == 10_000


def test_admins_cannot_change_an_account(admin_client_: Client, player: Any) -> None:
    account = Account.objects.get(user=player)
    change = reverse("admin:ledger_account_change", args=[account.pk])
    assert admin_client_.post(change, {"balance": 1}).status_code == 403
    assert Account.objects.get(user=player).balance == 10_000


def test_the_transfer_list_filters_by_kind_user_and_round(
    admin_client_: Client, played: None, player: Any, other_player: Any
) -> None:
    url = reverse("admin:ledger_transfer_changelist")
    by_round = admin_client_.get(url, {"round": "42"})
    assert by_round.context["cl"].result_count == 5  # 2 holds, 2 payouts, 1 fee
    by_user = admin_client_.get(url, {"user": other_player.username})
    assert by_user.context["cl"].result_count == 3  # grant, hold, payout
    by_kind = admin_client_.get(url, {"kind__exact": "hold", "user": str(player.pk)})
    assert by_kind.context["cl"].result_count == 2
    searched = admin_client_.get(url, {"q": "fee:42"})
    assert searched.context["cl"].result_count == 1


def test_the_csv_export_streams_the_filtered_transfers(admin_client_: Client, played: None) -> None:
    response = admin_client_.get(reverse("admin:ledger_transfer_export"), {"round": "42"})
    assert response.streaming
    assert response["Content-Type"].startswith("text/csv")
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    assert [row["kind"] for row in rows] == ["hold", "hold", "settle", "settle", "fee"]
    payout = next(row for row in rows if row["kind"] == "settle" and row["credit_user"] == "an")
    assert payout["amount"] == "770"  # 500 back + 300 won - 30 fee
    assert all(row["round_id"] == "42" for row in rows)


def test_the_dashboard_shows_the_ledger_figures(admin_client_: Client, played: None) -> None:
    services.record_ledger_check()
    page = admin_client_.get(reverse("admin:ledger_dashboard"))
    assert page.status_code == 200
    assert page.context["circulation"] == 30_000  # three sign-ups, admin included
    assert page.context["house_revenue"] == 30
    assert page.context["escrow_outstanding"] == 100
    assert page.context["open_rounds"] == 1
    assert page.context["last_check"].ok
    assert b'data-figure="house_revenue">30<' in page.content
    assert 'data-figure="circulation">30.000<' in page.content.decode()  # grouped, as xu


def test_the_transfer_list_groups_amounts(admin_client_: Client, played: None) -> None:
    page = admin_client_.get(reverse("admin:ledger_transfer_changelist")).content.decode()
    assert ">10.000<" in page  # a sign-up grant, grouped like every amount of xu


def test_the_statement_shows_each_posting_with_the_running_balance(
    admin_client_: Client, played: None, player: Any
) -> None:
    account = Account.objects.get(user=player)
    page = admin_client_.get(reverse("admin:ledger_account_statement", args=[account.pk]))
    rows = [(p.delta, p.balance_after) for p in page.context["page"]]
    assert rows == [(-100, 10_170), (770, 10_270), (-500, 9_500), (10_000, 10_000)]


def test_players_cannot_open_the_ledger_admin(player: Any) -> None:
    client = Client()
    client.force_login(player)
    response = client.get(reverse("admin:ledger_dashboard"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_an_admin_adjusts_a_wallet_with_a_reason_once_however_often_they_submit(
    admin_client_: Client, player: Any, admin_user: Any
) -> None:
    account = Account.objects.get(user=player)
    url = reverse("admin:ledger_account_adjust", args=[account.pk])
    form = admin_client_.get(url).context["form"]
    data = {"amount": "-1500", "reason": "Chargeback", "key": form.initial["key"]}
    assert admin_client_.post(url, data).status_code == 302
    assert admin_client_.post(url, data).status_code == 302  # a double submit
    adjustment = Transfer.objects.get(kind="adjustment")
    assert (adjustment.amount, adjustment.actor, adjustment.reason) == (
        1_500,
        admin_user,
        "Chargeback",
    )
    assert Account.objects.get(user=player).balance == 8_500


def test_an_adjustment_without_a_reason_is_not_posted(admin_client_: Client, player: Any) -> None:
    account = Account.objects.get(user=player)
    url = reverse("admin:ledger_account_adjust", args=[account.pk])
    page = admin_client_.post(url, {"amount": "5", "reason": "", "key": "k"})
    assert page.status_code == 200
    assert not Transfer.objects.filter(kind="adjustment").exists()


def test_an_admin_reverses_a_transfer_and_cannot_reverse_a_round_flow(
    admin_client_: Client, played: None, player: Any
) -> None:
    grant = Transfer.objects.get(kind="signup_grant", credit__user=player)
    url = reverse("admin:ledger_transfer_reverse", args=[grant.pk])
    assert admin_client_.post(url, {"reason": "Fraudulent sign-up"}).status_code == 302
    assert grant.reversed_by.reason == "Fraudulent sign-up"
    stake = Transfer.objects.filter(kind="hold").earliest("pk")
    refused = admin_client_.post(
        reverse("admin:ledger_transfer_reverse", args=[stake.pk]), {"reason": "no"}
    )
    assert refused.status_code == 200
    assert not Transfer.objects.filter(reverses=stake).exists()


def test_staff_without_the_permission_cannot_correct_balances(staff: Any, player: Any) -> None:
    client = Client()
    client.force_login(staff)
    account = Account.objects.get(user=player)
    assert client.get(reverse("admin:ledger_account_adjust", args=[account.pk])).status_code == 403
