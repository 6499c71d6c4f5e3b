"""Several OS processes hammer the same accounts; the ledger stays consistent."""

from __future__ import annotations

import multiprocessing
from typing import Any

import pytest
from django.db import connection

from ledger import selectors
from ledger.audit import run_checks
from ledger.models import Account, Transfer
from tests.support.workers import random_traffic

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

PROCESSES = 4
OPS = 150


def test_concurrent_processes_keep_every_balance_equal_to_its_history(
    transactional_db: None, make_user: Any
) -> None:
    users = [make_user(f"p{i}") for i in range(5)]
    db_settings = dict(connection.settings_dict)
    connection.close()  # the children open their own connections

    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, context.Pool(PROCESSES) as pool:
        start = manager.Barrier(PROCESSES)  # the processes overlap, however loaded the machine
        refused = pool.starmap(
            random_traffic,
            [(db_settings, seed, [u.pk for u in users], OPS, start) for seed in range(PROCESSES)],
        )

    report = run_checks()
    assert report.ok, report.problems
    minted = sum(Transfer.objects.filter(debit__kind="issuance").values_list("amount", flat=True))
    assert selectors.circulation() == minted
    assert not Account.objects.exclude(kind="issuance").filter(balance__lt=0).exists()
    # The traffic really happened, and not everything was refused.
    assert Transfer.objects.filter(kind="hold").count() > 10
    assert Transfer.objects.filter(kind__in=["settle", "release"]).count() > 0
    assert sum(refused) < PROCESSES * OPS / 2
