"""A child process for the concurrency test: its own Django, its own database connection."""

from __future__ import annotations

import os
import random
from typing import Any


def random_traffic(
    db_settings: dict[str, Any], seed: int, user_ids: list[int], ops: int, start: Any = None
) -> int:
    """Random transfers, holds, settlements and voids on a few shared accounts and rounds.

    ``start`` (a barrier) makes every process begin its traffic together: on a loaded machine
    a process that starts alone could close every round before the others hold anything.
    Returns how many operations the ledger refused (a refusal is fine; a crash is not).
    """
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django
    from django.conf import settings
    from django.db import connections

    django.setup()
    # Point at the test database the parent created, before the first query.
    settings.DATABASES["default"].update(db_settings)
    connections["default"].close()
    connections["default"].settings_dict.update(db_settings)

    from accounts.models import User
    from ledger import selectors, services
    from ledger.errors import LedgerError
    from ledger.keys import wallet_key
    from ledger.services import posting

    # Half the processes take the Python write path, half the PostgreSQL function:
    # both must hold the same locks in the same order.
    posting.USE_DATABASE_FUNCTION = seed % 2 == 0
    rng = random.Random(seed)
    users = list(User.objects.filter(pk__in=user_ids))
    refused = 0
    if start is not None:
        start.wait(timeout=300)
    for n in range(ops):
        action = rng.random()
        try:
            if action < 0.35:
                src, dst = rng.sample(users, 2)
                leg = services.Leg(
                    kind="adjustment",
                    debit=wallet_key(src.pk),
                    credit=wallet_key(dst.pk),
                    amount=rng.randint(1, 400),
                    key=f"w{seed}:{n}",
                )
                services.post_transfers([leg])
            elif action < 0.65:
                services.hold(rng.randint(1, 12), rng.choice(users), rng.randint(1, 300))
            elif action < 0.80:
                round_id = rng.randint(1, 12)
                holds = selectors.holds_of_round(round_id)
                if len(holds) >= 2:
                    loser, winner = rng.sample(sorted(holds), 2)
                    amount = rng.randint(0, holds[loser])
                    services.settle_round(round_id, {winner: amount, loser: -amount})
            elif action < 0.90:
                services.release_round_holds(rng.randint(1, 12))
            else:
                services.top_up_bot(rng.choice(users), rng.randint(1, 50), key=f"b{seed}:{n}")
        except LedgerError:
            refused += 1
    return refused
