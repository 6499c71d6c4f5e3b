from __future__ import annotations

from typing import Any

from ledger import selectors, services
from ledger.audit import run_checks
from ledger.models import Transfer, TransferKind


def test_sign_up_grants_ten_thousand_xu(player: Any) -> None:
    assert selectors.balance(player) == 10_000
    grant = Transfer.objects.get(kind=TransferKind.SIGNUP_GRANT)
    assert grant.credit.user == player
    assert grant.debit.kind == "issuance"


def test_the_grant_is_given_once_per_user(player: Any) -> None:
    services.grant_signup_bonus(player)
    assert selectors.balance(player) == 10_000
    assert Transfer.objects.filter(kind=TransferKind.SIGNUP_GRANT).count() == 1


def test_a_new_ledger_passes_its_check(player: Any, other_player: Any) -> None:
    report = run_checks()
    assert report.ok, report.problems
    assert report.figures["circulation"] == 20_000
    assert report.figures["issuance"] == -20_000


def test_an_account_past_its_addresses_daily_grants_gets_none_and_the_ledger_holds(
    make_user: Any, settings: Any
) -> None:
    settings.SIGNUP_GRANTS_PER_ADDRESS_PER_DAY = 1
    first = make_user("an", address="203.0.113.7")
    second = make_user("binh", address="203.0.113.7")
    assert (selectors.balance(first), selectors.balance(second)) == (10_000, 0)
    assert Transfer.objects.filter(kind=TransferKind.SIGNUP_GRANT).count() == 1
    services.claim_daily_bonus(second)  # the daily bonus is theirs all the same
    assert selectors.balance(second) == 1_000
    assert run_checks().ok
