"""Hooks for features built on the tables (bots, moderation). Sent after the commit.

Receivers must not change state themselves: they enqueue tasks that call services.
"""

from django.dispatch import Signal

seat_changed = Signal()
"""Someone sat down or stood up. Arguments: table_id."""

round_dealt = Signal()
"""A round was dealt. Arguments: table_id, round_id, bot_ids (the bots dealt in)."""

round_settled = Signal()
"""A round was settled (or voided). Arguments: table_id, round_id, managed (whether the
table belongs to the app that created it: ``Table.is_managed``; a receiver that only cares
for such tables need not look the table up)."""


seat_wanted = Signal()
"""A person was refused a full table whose bots are mid-round. Sent at once (the refusal
rolls back), so receivers may only leave a note. Arguments: table_id."""


staff_entered_private_table = Signal()
"""A moderator or admin opened a private table no invite let them in to (moderation audits
it). Sent at once (the page is a read). Arguments: staff_id, table_id."""


def send_on_commit(signal: Signal, **kwargs: object) -> None:
    from django.db import transaction

    # robust: a receiver that fails (its broker away) must not fail the committed change
    # that sent the signal; the bots' and moderation's sweeps pick up what was missed.
    transaction.on_commit(lambda: signal.send(sender=None, **kwargs), robust=True)


round_rating = Signal()
"""Sent by ``games.services.showdown.settle`` inside the settlement's transaction (not
after the commit, unlike the others), after the ledger and the players' results are
written. Arguments: table, round, players (the round's players with their users,
``units`` and ``xu`` set).

The receiver that rates rounds (the ratings app) may write in the transaction, and
returns the rating changes as JSON, kept on ``Round.ratings`` (saved with the
settlement, no statement more) for the summary and the history; any other receiver
returns None. A receiver's error propagates like any settlement error (the round is
voided): receivers guard what they can get wrong.
"""


sit_requested = Signal()
"""Sent by ``games.services.sit`` at once, inside its transaction, before a person takes a
seat at an ordinary table. Arguments: user, table. A receiver returns a reason to refuse
the seat, or None: a translated string (an entrant of a tournament that is about to seat
them) or a ``games.errors.GameError`` whose code and message the refusal keeps (social: a
block keeps two people apart, so nobody sits where someone they blocked, or who blocked
them, is seated)."""


watch_requested = Signal()
"""Sent by ``games.selectors.may_enter`` at once, for a user who is not staff: at a
managed table (a tournament's), and at a private table to anyone but its creator and
those seated there. Also sent by ``games.services.private.admit`` before an invite link
lets someone in. Arguments: table, user. A receiver returns False, or a translated reason,
to keep the user out of the table's page and socket (an arena's board, which an entrant
watching could still be dealt; social: the host or creator of a private table blocked
them, or they blocked the host or creator), else None (or True)."""


table_refused = Signal()
"""Sent by the table page at once, when ``games.selectors.may_enter`` keeps someone out of
a managed table (a tournament's). Arguments: table, user. A receiver returns the address
of the page that owns the table (the tournament's), where the page sends them instead of
a dead end (an arena entrant whose board closed before their page opened it), else None."""


invite_requested = Signal()
"""Sent by ``games.services.private.hold_seat`` at once, inside its transaction, before a
host keeps a seat for someone. Arguments: host, user, table. A receiver returns a
translated reason to refuse (social: a block between the two), or None."""


collusion_check_requested = Signal()
"""Sent by a tournament at its end, inside its transaction, before its prizes are paid
(``tournaments.services.pay_or_hold``). Arguments: user_ids (its entrants), round_ids (the
settled rounds of its tables). The receiver that knows the collusion signals (moderation)
returns a list of findings among these entrants and rounds, each a dict
``{"signal": code, "users": [user ids], ...figures}`` (empty: none fired); any other
receiver returns None. Any finding holds the prizes for a moderator
(``ledger.services.hold_prizes``). Receivers only read."""
