"""Run ledger writes atomically, retrying transient conflicts only at the outermost level.

The games app calls the ledger inside its own transaction; there a savepoint keeps a
refused ledger call from poisoning the caller's work, and retrying is the caller's job
(it can wrap its whole transaction in `atomic_with_retry`). Called on its own, the
ledger retries serialization failures, deadlocks and idempotency-key races a few times.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from django.db import IntegrityError, OperationalError, transaction

from ledger.models import KEY_CONSTRAINT

T = TypeVar("T")

MAX_ATTEMPTS = 5
_SERIALIZATION_FAILURE = "40001"
_DEADLOCK_DETECTED = "40P01"
_UNIQUE_VIOLATION = "23505"


def is_key_race(exc: BaseException) -> bool:
    """Another transaction committed the same idempotency key between our check and insert."""
    cause = exc.__cause__
    diag = getattr(cause, "diag", None)
    if getattr(cause, "sqlstate", None) == _UNIQUE_VIOLATION and diag is not None:
        return bool(diag.constraint_name == KEY_CONSTRAINT)
    # SQLite names the column, not the constraint.
    return "ledger_transfer.idempotency_key" in str(exc)


def is_transient(exc: BaseException) -> bool:
    return getattr(exc.__cause__, "sqlstate", None) in {_SERIALIZATION_FAILURE, _DEADLOCK_DETECTED}


def atomic_with_retry(
    fn: Callable[[], T], *, attempts: int = MAX_ATTEMPTS, savepoint: bool = True
) -> T:
    """Run `fn` in a transaction (a savepoint when already inside one).

    `savepoint=False`: inside a transaction, `fn` runs in it as it is, for a caller that
    catches no refusal (its transaction fails with it, or rolls back to a savepoint of its
    own): two round trips fewer, and nothing to retry (a key race needs two transactions
    posting one round's keys, which the caller's locks keep apart)."""
    if transaction.get_connection().in_atomic_block:
        if not savepoint:
            return fn()
        try:
            with transaction.atomic():
                return fn()
        except IntegrityError as exc:
            if not is_key_race(exc):
                raise
        # The savepoint rolled back; the winner's row is committed and visible now
        # (READ COMMITTED), so a second pass finds it and answers idempotently.
        with transaction.atomic():
            return fn()

    return retry_transient(lambda: _in_transaction(fn), attempts=attempts)


def _in_transaction(fn: Callable[[], T]) -> T:
    with transaction.atomic():
        return fn()


def retry_transient(fn: Callable[[], T], *, attempts: int = MAX_ATTEMPTS) -> T:
    """Call `fn` (which owns its transaction) again after a transient failure."""
    for attempt in range(1, attempts + 1):
        try:
            return fn()
        except (OperationalError, IntegrityError) as exc:
            retryable = is_transient(exc) or is_key_race(exc)
            if not retryable or attempt == attempts:
                raise
        # Jittered backoff so the processes that collided do not collide again.
        time.sleep(random.uniform(0, 0.005 * 2**attempt))
    raise AssertionError("unreachable")
