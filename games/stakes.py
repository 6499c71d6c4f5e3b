"""What a table's rounds are played for: the seam between the round machinery and the money.

Every round, whatever it is played for, goes through the same deal, clock, auto-arranging
at the deadline (docs/rules.md#timing), showdown and reveals. What differs is only where a
player's balance comes from, what is held at the deal and what the settlement moves. A
table says which in ``Table.stakes_in``:

- ``xu``: the player's wallet, through ``ledger`` (holds into the round's escrow, the
  settlement pays out of it). Every ordinary table; the behaviour before this seam.
- ``chips``: a tournament's chips. The app that owns the table (``tournaments``)
  registers the provider at start-up; it keeps the stacks, and its ``settle`` moves chips
  between them, never xu.
- ``points``: nothing is held or paid. The settlement is computed and recorded on the
  round (``RoundPlayer.units`` and ``xu``, the latter in stake units) and handed to the
  registered ``on_points`` hook, if any, which keeps its own score (an arena).

A table not played for xu belongs to the app that created it (``Table.is_managed``): it is
not in the lobby, nobody sits or stands there by themselves (the owner assigns seats with
``games.services.assign_seat`` / ``unassign_seat``), and a player who is away is not stood
up at the deal: their hand is played for them (docs/rules.md#timing), never eliminated.

Every provider method runs inside the table's transaction, under its lock (and the
round's): it may lock its own rows after those (``docs/tournaments.md`` gives the order).
``games`` imports none of the apps that provide stakes (import-linter's layers): they
register here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from games.models import StakesIn

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Round, RoundPlayer, Table

POINTS_BALANCE = 10**12
"""What every player of a ``points`` table can "afford": nothing is held, so no cap bites
below a full round's worst loss."""


class Stakes(Protocol):
    """Balances, holds and settlement for the rounds of one kind of table."""

    def balances(self, table: Table, user_ids: Sequence[int]) -> dict[int, int]:
        """What each seated player can put at risk (the hold is computed from it)."""
        ...

    def hold(self, table: Table, round_: Round, holds: Sequence[tuple[User, int]]) -> None:
        """Reserve the players' stakes at the deal (nothing to do where nothing moves)."""
        ...

    def settle(
        self, table: Table, round_: Round, players: Sequence[RoundPlayer], deltas: Mapping[int, int]
    ) -> int:
        """Pay out a settled round: ``deltas`` is {user id: signed net}, summing to zero,
        each loss within the player's hold. Returns the house fee taken (0 if none)."""
        ...

    def void(self, table: Table, round_: Round) -> int | None:
        """A live round was voided: give every hold back. Returns the id of the record of
        it kept where the stakes live (the ledger's closure), if any."""
        ...


class XuStakes:
    """Ordinary tables: the players' wallets, through the ledger."""

    def balances(self, table: Table, user_ids: Sequence[int]) -> dict[int, int]:
        from ledger import selectors as ledger_selectors

        return ledger_selectors.balances(list(user_ids))

    def hold(self, table: Table, round_: Round, holds: Sequence[tuple[User, int]]) -> None:
        from ledger import services as ledger

        # No savepoint of the ledger's own: a refused hold fails the deal, and a refused
        # settlement rolls its whole step back (then showdown.advance_round voids).
        held = [(user, amount) for user, amount in holds if amount > 0]
        ledger.hold_many(round_.pk, held, savepoint=False)

    def settle(
        self, table: Table, round_: Round, players: Sequence[RoundPlayer], deltas: Mapping[int, int]
    ) -> int:
        from ledger import services as ledger

        return ledger.settle_round(round_.pk, deltas, savepoint=False).fee

    def void(self, table: Table, round_: Round) -> int | None:
        from ledger import services as ledger

        return ledger.release_round_holds(round_.pk).pk


PointsHook = Callable[["Table", "Round", Sequence["RoundPlayer"]], None]


class PointsStakes:
    """Nothing held, nothing paid: the result is recorded and handed to ``on_points``."""

    def balances(self, table: Table, user_ids: Sequence[int]) -> dict[int, int]:
        return dict.fromkeys(user_ids, POINTS_BALANCE)

    def hold(self, table: Table, round_: Round, holds: Sequence[tuple[User, int]]) -> None:
        return None

    def settle(
        self, table: Table, round_: Round, players: Sequence[RoundPlayer], deltas: Mapping[int, int]
    ) -> int:
        for hook in _points_hooks:
            hook(table, round_, players)
        return 0

    def void(self, table: Table, round_: Round) -> int | None:
        return None


_providers: dict[str, Stakes] = {StakesIn.XU: XuStakes(), StakesIn.POINTS: PointsStakes()}
_points_hooks: list[PointsHook] = []


class NoStakesProvider(LookupError):
    """A table is played for something no installed app provides."""


def register(stakes_in: str, provider: Stakes) -> None:
    """Provide the stakes of tables played for ``stakes_in`` (an app's ``ready()``)."""
    if stakes_in not in StakesIn.values or stakes_in == StakesIn.XU:
        raise ValueError(f"cannot register a provider for {stakes_in!r}")
    _providers[stakes_in] = provider


def on_points(hook: PointsHook) -> None:
    """Call ``hook(table, round, players)`` inside the settlement of every ``points``
    round, after the players' ``units`` and ``xu`` are set (once per hook)."""
    if hook not in _points_hooks:
        _points_hooks.append(hook)


def per_unit(stakes_in: str, stake: int) -> int:
    """What one amount shown for a round is worth in its settled ``xu`` field: 1 (xu and
    chips are shown as settled), or a ``points`` round's stake, whose amounts are shown in
    units (nothing is held, so no cap bites and every amount is units × stake)."""
    return stake if stakes_in == StakesIn.POINTS else 1


def for_table(table: Table) -> Stakes:
    try:
        return _providers[table.stakes_in]
    except KeyError:
        raise NoStakesProvider(f"no stakes provider for {table.stakes_in!r} tables") from None
