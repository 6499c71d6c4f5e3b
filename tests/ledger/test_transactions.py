from __future__ import annotations

import pytest
from django.db import OperationalError, transaction

from ledger.transactions import MAX_ATTEMPTS, atomic_with_retry


class _Deadlock(Exception):
    sqlstate = "40P01"


def _transient() -> OperationalError:
    error = OperationalError("deadlock detected")
    error.__cause__ = _Deadlock()
    return error


@pytest.mark.django_db(transaction=True)
def test_a_deadlock_is_retried_when_the_ledger_owns_the_transaction() -> None:
    calls: list[int] = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise _transient()
        return "posted"

    assert atomic_with_retry(flaky) == "posted"
    assert len(calls) == 3


@pytest.mark.django_db(transaction=True)
def test_retries_are_bounded() -> None:
    calls: list[int] = []

    def always() -> None:
        calls.append(1)
        raise _transient()

    with pytest.raises(OperationalError):
        atomic_with_retry(always)
    assert len(calls) == MAX_ATTEMPTS


@pytest.mark.django_db
def test_inside_a_callers_transaction_the_caller_retries() -> None:
    calls: list[int] = []

    def always() -> None:
        calls.append(1)
        raise _transient()

    with pytest.raises(OperationalError), transaction.atomic():
        atomic_with_retry(always)
    assert len(calls) == 1
