"""What every change to a tournament of either kind goes through: the lock, the version,
the timers, the entry checks, withdrawing, the one cancel path and the prizes.

The kinds' own services (``tournaments.sitandgo.services``, ``tournaments.arena.services``)
build on these and never on each other; nothing here imports them (docs/tournaments.md,
For developers).

Lock order (docs/tournaments.md), the same in every path so two never wait on each other:

1. the tournament's tables, ids ascending (``games.services.lock_table``: each table's
   command stream); a table's settlement already holds its own table;
2. the tournament row (``lock``);
3. its entries;
4. the ledger's accounts (the pool first, then wallets: ``ledger.services``).

Xu move only through the ledger's pool services, inside the transaction that causes them:
the buy-in at registration, the refund when an entrant withdraws or the tournament is
cancelled before it starts (or voided by the watchdog), the prizes when the tournament
finishes (or, when the collusion signals fire, the prizes held for a moderator). Timers
carry the state they expect and do nothing when it moved on; the sweeper
(``tournaments.sweeper``) catches what they missed.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from celery import Task
from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.ids import parse_id
from accounts.models import User
from accounts.text import clean_title
from core.compiled import Compiled
from games import services as games
from games.models import Preset, Round, RoundState, Seat, Table
from games.rules import Rules, RulesConfigError
from games.services import duplicate as games_duplicate
from ledger import selectors as ledger_selectors
from ledger import services as ledger
from ledger.errors import InsufficientFunds
from ledger.formats import Xu
from tournaments import events, rules
from tournaments.errors import TournamentError
from tournaments.models import EndReason, Entry, EntryState, Kind, State, Tournament

logger = logging.getLogger(__name__)

ACTIVE_ENTRY = (EntryState.REGISTERED, EntryState.PLAYING)


ANY_KIND = (Kind.SIT_AND_GO, Kind.ARENA)
"""What a service common to both kinds (withdrawing before the start) passes to ``lock``."""

WRONG_KIND = {
    Kind.SIT_AND_GO: _("This tournament is an arena, not a sit-and-go: use the arena's page."),
    Kind.ARENA: _("This tournament is a sit-and-go, not an arena: use its own page."),
}


def lock(tournament_id: Any, kind: str | tuple[str, ...]) -> Tournament:
    """Lock the tournament row (every change to a tournament and its entries waits here) and
    check it is of the kind the caller serves: a sit-and-go service given an arena (or the
    other way round), through any URL, timer or socket, is refused and nothing changes
    (``wrong_kind``). ``kind`` is one kind, or ``ANY_KIND`` for a service of both."""
    try:
        tournament = Tournament.objects.select_for_update().get(pk=parse_id(tournament_id) or 0)
    except (Tournament.DoesNotExist, ValueError, TypeError, OverflowError):
        raise TournamentError(_("This tournament does not exist."), code="not_found") from None
    kinds = (kind,) if isinstance(kind, str) else kind
    if tournament.kind not in kinds:
        raise TournamentError(WRONG_KIND[Kind(kinds[0])], code="wrong_kind")
    return tournament


def lock_open_tables(tournament_id: int, *, skip_locked: bool = False) -> list[Table]:
    """Step 1 of the lock order: the tournament's tables not broken yet, ids ascending.
    ``games.errors.NotFound`` when one is gone, or (``skip_locked``) busy elsewhere."""
    table_ids = list(
        Table.objects.filter(
            tournament_table__tournament_id=tournament_id,
            tournament_table__broken_at__isnull=True,
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return [games.lock_table(t, skip_locked=skip_locked) for t in table_ids]


def bump(tournament: Tournament, *fields: str, progress: bool = False) -> None:
    """Count one visible change; the page hears the new state after the commit. With
    ``progress`` the change moved the tournament on (a registration, the start, a settled
    round, a table step that did something, a pairing, a board's points): the watchdog
    (``tournaments.watchdog``) ends a tournament that made none for TOURNAMENT_STALL_MINUTES."""
    tournament.version += 1
    if progress:
        tournament.progressed_at = timezone.now()
        fields = (*fields, "progressed_at")
    tournament.save(update_fields=["version", *fields])
    events.changed(tournament.pk)


def schedule(task: Task[Any, Any], args: tuple[Any, ...], eta: datetime | None = None) -> None:
    """Send a timer ``task`` (a kind's own, named directly) once the change commits.

    Robust: a broker that is away must not fail the committed change (the sweeper runs what
    was due). The kinds' services import their tasks inside the function that schedules
    one, as ``games.services`` does: the tasks import those services."""
    # eta None: at once (Celery's own default, which its stubs type as a datetime only).
    transaction.on_commit(lambda: task.apply_async(args, eta=eta), robust=True)  # type: ignore[arg-type]


# --- What both kinds check, withdrawing, cancelling -----------------------------------


def checked_terms(
    *,
    name: str,
    players: Any,
    players_message: Any,
    buy_in: Any,
    preset: str,
    start_seconds: int,
) -> tuple[str, dict[str, Any]]:
    """What every kind of tournament checks of its creator's form: the name, the number of
    players (``players_message`` says it for the kind), the buy-in and the preset; and the
    rules its tables play by (the tournament timers, a hand not sent in time played for
    its owner: docs/rules.md#timing). Returns the name as kept and those rules' overrides."""
    name = clean_title(name, TournamentError, _("A tournament needs a name of 1 to 60 characters."))
    if not isinstance(players, int) or not rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS:
        raise TournamentError(
            players_message,
            code="bad_players",
            low=rules.MIN_PLAYERS,
            high=rules.MAX_PLAYERS,
        )
    if not isinstance(buy_in, int) or not 0 <= buy_in <= 1_000_000:
        raise TournamentError(
            _("The buy-in must be between 0 and 1,000,000 xu."), code="bad_buy_in"
        )
    if preset not in Preset.values:
        raise TournamentError(_("Unknown rules preset."), code="bad_preset")
    overrides = {
        "arrange_seconds": settings.TOURNAMENT_ARRANGE_SECONDS,
        "reveal_seconds": settings.TOURNAMENT_REVEAL_SECONDS,
        "start_seconds": start_seconds,
        "on_timeout": "auto",  # docs/rules.md#timing: a hand not sent in time is played
    }
    try:
        Rules.preset(preset).with_overrides(overrides)
    except RulesConfigError as exc:  # a misconfigured deployment, not the player's input
        raise TournamentError(str(exc), code="bad_rules") from exc
    return name, overrides


def ensure_free_to_enter(user: User, tournament: Tournament) -> None:
    """One tournament at a time, and not from a seat at an ordinary table: what every kind
    of tournament checks before it takes someone in."""
    if user.is_api_bot and not tournament.allow_bots:
        raise TournamentError(_("This tournament does not take bots."), code="bots_not_allowed")
    other = _engaged_elsewhere(user, tournament)
    if other is not None:
        raise TournamentError(
            _("You are already playing in the tournament “%(name)s”."),
            code="engaged",
            name=other.tournament.name,
        )
    seat = Seat.objects.filter(user=user).select_related("table").first()
    if seat is not None:
        raise TournamentError(
            _("You are seated at table “%(name)s”. Leave it before you register."),
            code="seated",
            name=seat.table.name,
        )


def pay_buy_in(tournament: Tournament, user: User, entry: Entry) -> None:
    """The entry's buy-in (if any) into the pool, in the caller's transaction; a balance
    short of it is refused with both amounts."""
    if not tournament.buy_in:
        return
    try:
        ledger.buy_in(tournament.pk, user, tournament.buy_in, entry=entry.registrations)
    except InsufficientFunds:
        raise TournamentError(
            _("The buy-in is %(buy_in)s xu; you have %(balance)s xu."),
            code="balance_too_low",
            buy_in=Xu(tournament.buy_in),
            balance=Xu(ledger_selectors.balance(user)),
        ) from None


def _engaged_elsewhere(user: User, tournament: Tournament) -> Entry | None:
    return (
        Entry.objects.filter(user=user, state__in=ACTIVE_ENTRY)
        .exclude(tournament=tournament)
        .select_related("tournament")
        .first()
    )


@transaction.atomic
def unregister(user: User, tournament_id: Any) -> Entry:
    """Withdraw before the start: the buy-in comes back from the pool. The same for both
    kinds (the arena's page withdraws here too)."""
    tournament = lock(tournament_id, ANY_KIND)
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
    if entry is None or entry.state == EntryState.WITHDRAWN:
        raise TournamentError(
            _("You are not registered in this tournament."), code="not_registered"
        )
    # Say what happened to the tournament, not only that the entry is no longer
    # "registered" (it is playing, out, or refunded already).
    if tournament.state == State.RUNNING:
        raise TournamentError(
            _("The tournament has started: a buy-in is refunded only before the start."),
            code="started",
        )
    if tournament.state == State.FINISHED:
        raise TournamentError(
            _("The tournament is over: a buy-in is refunded only before the start."),
            code="finished",
        )
    if tournament.state in (State.CANCELLED, State.VOIDED):
        raise TournamentError(
            _("The tournament was called off and every buy-in refunded already."),
            code="called_off",
        )
    if tournament.buy_in:
        ledger.refund_buy_in(tournament.pk, user, entry=entry.registrations)
    entry.state = EntryState.WITHDRAWN
    entry.save(update_fields=["state"])
    bump(tournament)
    return entry


def cancel_locked(
    tournament: Tournament, user: User | None, reason: str = EndReason.CREATOR
) -> Tournament:
    """The one cancel path of every kind (the caller holds the tournament's lock): before
    the start only, every buy-in back, the pool closed, and the duplicate schedule it owns
    (an arena's) closed with it, so its boards are revealed and no longer offered."""
    if user is not None and user.pk != tournament.created_by_id:
        raise TournamentError(_("Only its creator can cancel a tournament."), code="not_creator")
    if tournament.state == State.CANCELLED:
        return tournament
    if tournament.state != State.REGISTERING:
        raise TournamentError(
            _("The tournament has started: it can no longer be cancelled."), code="started"
        )
    ledger.refund_pool(tournament.pk)
    tournament.entries.filter(state=EntryState.REGISTERED).update(state=EntryState.REFUNDED)
    tournament.state = State.CANCELLED
    tournament.end_reason = reason
    tournament.bots_at = None
    tournament.finished_at = timezone.now()
    if tournament.schedule_id is not None:
        games_duplicate.close_schedule(tournament.schedule_id)
    bump(tournament, "state", "end_reason", "bots_at", "finished_at")
    return tournament


# Every sit-down at an ordinary table asks (registration_refusal): compiled once.
_ACTIVE_ENTRY = Compiled(
    lambda user_id: (
        Entry.objects.filter(user_id=user_id, state__in=ACTIVE_ENTRY)
        .select_related("tournament")
        .order_by("pk")[:1]
    )
)


def registration_refusal(user: User) -> str | None:
    """Why ``user`` may not sit at an ordinary table now (games.signals.sit_requested)."""
    entry = _ACTIVE_ENTRY.first(user.pk)
    if entry is None:
        return None
    return str(
        _("You are registered in the tournament “%(name)s”: it seats you when it starts.")
        % {"name": entry.tournament.name}
    )


# --- Prizes: paid, or held for a moderator ----------------------------------------------


def pay_or_hold(tournament: Tournament, prizes: Mapping[int, int]) -> bool:
    """Pay the prizes ({user id: xu}, adding up to the pool) from the pool, unless the
    collusion signals fire among the entrants and their rounds: then the pool goes whole
    into the ledger's prize hold, the prizes recorded, for a moderator to release them or
    return the buy-ins (docs/tournaments.md, prizes under review). True: held."""
    pool = ledger_selectors.pool_balance(tournament.pk)
    findings = collusion_findings(tournament) if pool else []  # nothing to hold: pay nothing
    if not findings:
        ledger.pay_prizes(tournament.pk, prizes)
        return False
    ledger.hold_prizes(
        tournament.pk,
        prizes,
        findings=findings,
        title=tournament.name,
        url=reverse("tournaments:detail", args=[tournament.pk]),
    )
    logger.warning(
        "tournament %s: prizes held for review (%s)",
        tournament.pk,
        ", ".join(sorted({str(f.get("signal")) for f in findings})),
    )
    return True


@transaction.atomic
def prize_review_changed(tournament_id: int) -> None:
    """The ledger decided (or held) the tournament's prizes: its page hears the new state
    with a version of its own (the state reads the review from the ledger)."""
    try:
        tournament = lock(tournament_id, ANY_KIND)
    except TournamentError:
        return
    bump(tournament)


def collusion_findings(tournament: Tournament) -> list[dict[str, Any]]:
    """Ask (``games.signals.collusion_check_requested``: moderation answers) whether the
    collusion signals fire among the tournament's entrants and its own rounds. A receiver
    that fails counts as a finding: prizes are never paid on a check that did not run."""
    from games.signals import collusion_check_requested

    user_ids = list(
        tournament.entries.exclude(state__in=[EntryState.WITHDRAWN, EntryState.REFUNDED])
        .order_by("user_id")
        .values_list("user_id", flat=True)
    )
    round_ids = list(
        Round.objects.filter(
            table__tournament_table__tournament=tournament, state=RoundState.SETTLED
        ).values_list("pk", flat=True)
    )
    findings: list[dict[str, Any]] = []
    for receiver, answer in collusion_check_requested.send_robust(
        sender=Tournament, user_ids=user_ids, round_ids=round_ids
    ):
        if isinstance(answer, Exception):
            logger.error("collusion check %r failed: %r", receiver, answer)
            findings.append({"signal": "check_failed", "users": []})
        elif answer:
            findings.extend(answer)
    return findings
