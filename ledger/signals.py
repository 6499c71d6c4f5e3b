"""What the ledger tells the apps above it. Sent after the commit.

Receivers run in transactions of their own (the change they hear of is committed); one
that fails does not fail it (``send_on_commit`` is robust).
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

prize_hold_changed = Signal()
"""A tournament's prizes were held for review, released, or its buy-ins returned from the
hold. Arguments: tournament_id, outcome (``held``, ``released`` or ``returned``)."""


def send_on_commit(signal: Signal, **kwargs: object) -> None:
    transaction.on_commit(lambda: signal.send(sender=None, **kwargs), robust=True)
