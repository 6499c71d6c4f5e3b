"""The account table keeps only the indexes its queries need, and balance updates stay HOT."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from accounts.models import User
from ledger import services
from ledger.keys import wallet_key
from ledger.models import Account, AccountKind

pytestmark = pytest.mark.postgres


def _one(sql: str, params: list[Any] | None = None) -> Any:
    with connection.cursor() as cursor:
        cursor.execute(sql, params or [])
        return cursor.fetchone()


def test_the_account_table_keeps_only_the_indexes_its_queries_need(db: None) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'ledger_account'")
        indexes = {row[0] for row in cursor.fetchall()}
    assert indexes == {
        "ledger_account_pkey",
        "ledger_account_key_unique",  # every transfer finds and locks its accounts by key
        "ledger_one_wallet_per_user",  # a user's wallet, and the one-wallet rule
        "ledger_one_escrow_per_round",  # the one-escrow-per-round rule
        "ledger_one_pool_per_tournament",  # the one-pool-per-tournament rule (partial)
        "ledger_one_prize_hold_per_tournament",  # one prize hold a tournament (partial)
    }


def test_a_user_cannot_have_a_second_wallet(player: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(key="wallet:other", kind=AccountKind.WALLET, user=player)


def test_two_accounts_cannot_share_a_key(player: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(key=wallet_key(player.pk), kind=AccountKind.HOUSE, shard=1)


@pytest.mark.django_db(transaction=True)
def test_balance_updates_of_full_pages_stay_on_their_page() -> None:
    """Pages are filled to 70 %: a balance update finds room on its own page (HOT), so it
    writes no index entry. With full pages every update moved its row to another page."""
    users = User.objects.bulk_create(User(username=f"hot{i}", password="!") for i in range(600))
    # Live rows only, packed as a long-lived table's pages are (no dead row to prune).
    Account.objects.bulk_create(
        Account(key=wallet_key(u.pk), kind=AccountKind.WALLET, user=u, balance=1_000) for u in users
    )
    stats = "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = %s"
    _one("SELECT pg_stat_force_next_flush()")
    updates_before, hot_before = _one(stats, ["ledger_account"])
    rng = random.Random(7)
    for batch in range(5):  # committed one after another, like the site's transfers
        pairs = [rng.sample(users, 2) for _ in range(30)]
        for n, (a, b) in enumerate(pairs):
            services.post_transfers(
                [
                    services.Leg(
                        kind="adjustment",
                        debit=wallet_key(a.pk),
                        credit=wallet_key(b.pk),
                        amount=1,
                        key=f"hot:{batch}:{n}",
                    )
                ]
            )
    _one("SELECT pg_stat_force_next_flush()")
    updates, hot = _one(stats, ["ledger_account"])
    updates, hot = updates - updates_before, hot - hot_before
    assert updates >= 300
    # 85 % here with fillfactor 70; 10 % with the default fillfactor (full pages).
    assert hot / updates >= 0.75, f"only {hot} of {updates} account updates were HOT"
