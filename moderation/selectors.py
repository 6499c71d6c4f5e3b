"""Reads for the moderation pages: the queue, the replay, settle-again, signals, dashboards."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from itertools import combinations
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.ids import parse_id
from accounts.models import User
from games.models import Round, RoundEvent, RoundPlayer, RoundState, StakesIn
from games.rules.fair import FairnessError
from games.selectors import hands_withheld, settle_round_result, verify_round
from ledger import selectors as ledger_selectors
from ledger.models import Transfer
from ledger.services import fee_on_gain, round_wallet_results
from moderation.errors import NotFound
from moderation.models import (
    ActionKind,
    Category,
    Compensation,
    CompensationStatus,
    Dispute,
    Mute,
    SeatIP,
    StaffAction,
    Status,
)
from moderation.roles import can_moderate

# --- Access ------------------------------------------------------------------------------


def dispute_for(user: Any, dispute_id: Any) -> Dispute:
    """The case if this user may read it (its filer, or staff); NotFound otherwise.

    Not found rather than forbidden, so a player cannot learn which case numbers exist.
    """
    dispute = (
        Dispute.objects.select_related("round", "table", "filed_by", "reported_user", "moderator")
        .filter(pk=parse_id(dispute_id) or 0)
        .first()
    )
    if dispute is None or not (dispute.filed_by_id == user.pk or can_moderate(user)):
        raise NotFound()
    return dispute


def _as_int(value: Any, maximum: int) -> int | None:
    """A whole number from a query string, or None (not a number, negative, or too big);
    ids go through accounts.ids.parse_id."""
    try:
        number = int(value)
    except (TypeError, ValueError):  # "²" passes str.isdigit() and fails here
        return None
    return number if 0 <= number <= maximum else None


# --- Players -----------------------------------------------------------------------------


def cases_of(user: Any) -> QuerySet[Dispute]:
    return (
        Dispute.objects.filter(filed_by=user)
        .select_related("round", "reported_user")
        .order_by("-created_at")
    )


# --- The queue ---------------------------------------------------------------------------

MAX_AGE_HOURS = 24 * 365 * 20
"""The largest "older than" filter (20 years); a larger one is ignored."""


def queue(
    *,
    status: str = "",
    category: str = "",
    table: str = "",
    user: str = "",
    older_than_hours: str = "",
) -> QuerySet[Dispute]:
    """Open and in-review cases by default, oldest first; each filter narrows it."""
    cases = Dispute.objects.select_related(
        "round", "table", "filed_by", "reported_user", "moderator"
    ).order_by("created_at")
    # A filter value that cannot mean anything is ignored, never an error.
    if status in Status.values:
        cases = cases.filter(status=status)
    else:
        cases = cases.exclude(status=Status.RESOLVED)
    if category in Category.values:
        cases = cases.filter(category=category)
    table_id = parse_id(table)
    if table_id is not None:
        cases = cases.filter(table_id=table_id)
    if user:
        match = Q(filed_by__username__iexact=user) | Q(reported_user__username__iexact=user)
        user_id = parse_id(user)
        if user_id is not None:
            match |= Q(filed_by_id=user_id) | Q(reported_user_id=user_id)
        cases = cases.filter(match)
    hours = _as_int(older_than_hours, maximum=MAX_AGE_HOURS)
    if hours is not None:
        cases = cases.filter(created_at__lte=timezone.now() - timedelta(hours=hours))
    return cases


# --- Replay ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    seq: int
    time: Any
    kind: str
    title: str
    who: str
    data: dict[str, Any]


STEP_TITLES = {
    "deal": gettext_noop("Deal: the server seed is committed"),
    "cards": gettext_noop("Cards dealt"),
    "submit": gettext_noop("Arrangement submitted"),
    "leave": gettext_noop("Left the round"),
    "disconnect": gettext_noop("Connection lost"),
    "reconnect": gettext_noop("Connected again"),
    "join": gettext_noop("Sat down to watch (plays from the next round)"),
    "auto_arranged": gettext_noop("Not sent in time: arranged for the player (tự xếp)"),
    "showdown": gettext_noop("Showdown begins"),
    "reveal": gettext_noop("Reveal"),
    "settled": gettext_noop("Settled"),
}


ReplaySource = Callable[[Round], list[Step]]
_replay_sources: list[ReplaySource] = []


def add_replay_source(source: ReplaySource) -> None:
    """Another app adds its own steps to every replay (the chat app its table talk).

    Called from that app's ``AppConfig.ready``: moderation does not import the apps that
    build on it (pyproject.toml's import contracts).
    """
    if source not in _replay_sources:
        _replay_sources.append(source)


def replay_steps(round_: Round) -> list[Step]:
    """The round's log and what other apps add (table talk), in time order."""
    steps = round_log_steps(round_)
    for source in _replay_sources:
        steps.extend(source(round_))
    # Python's sort is stable: steps of the same instant keep the log's order.
    return sorted(steps, key=lambda step: step.time)


def round_log_steps(round_: Round) -> list[Step]:
    """The round's event log, step by step, with names instead of seat numbers."""
    names = {p.position: p.user.shown_name for p in round_.players.select_related("user")}
    steps = []
    for event in RoundEvent.objects.filter(round=round_).select_related("user").order_by("seq"):
        data = dict(event.data)
        who = event.user.shown_name if event.user else ""
        if "position" in data:
            who = names.get(data["position"], who)
        if event.kind == "showdown":
            data["unarranged_names"] = [names.get(p, str(p)) for p in data.get("unarranged", [])]
        steps.append(
            Step(
                seq=event.seq,
                time=event.created_at,
                kind=event.kind,
                title=_(STEP_TITLES.get(event.kind, event.kind)),
                who=who,
                data=data,
            )
        )
    return steps


def muted_until(user_id: int, now: datetime | None = None) -> datetime | None:
    """Until when staff muted this user's table talk, or None if they may talk."""
    now = now or timezone.now()
    until = Mute.objects.filter(user_id=user_id, until__gt=now).values_list("until", flat=True)
    return until.first()


def board_still_secret(staff: User, round_: Round) -> bool:
    """Whether the round's cards are a duplicate board ``staff`` may still be dealt: its
    replay opens only once they accept never to be dealt it (``services.open_board``)."""
    return hands_withheld(round_, staff, list(round_.players.all()))


def fairness(round_: Round) -> tuple[bool, str]:
    """(verified, message) for the provably-fair deal of the round."""
    try:
        verify_round(round_)
    except FairnessError as exc:
        return False, str(exc)
    return True, _("The deal matches the committed server seed and the client seeds.")


@dataclass(frozen=True)
class SettleAgainRow:
    user_id: int
    name: str
    position: int
    correct_xu: int
    correct_net: int
    paid_net: int

    @property
    def difference(self) -> int:
        return self.correct_net - self.paid_net


def settle_again(round_: Round) -> list[SettleAgainRow]:
    """The stored rules settle the round now; compare with what the wallets got.

    `net` is a wallet's gain or loss through the round (the result less the house fee, at
    the rate the round was settled at), so a re-settlement moves exactly the differences.
    """
    if round_.state != RoundState.SETTLED or round_.table.stakes_in != StakesIn.XU:
        return []  # chips and points never touched a wallet: nothing to compare
    closure = ledger_selectors.round_closure(round_.pk)
    percent = Decimal(closure.fee_percent if closure else "0")
    result = settle_round_result(round_)
    paid, _house = round_wallet_results(round_.pk)
    rows = []
    for player in round_.players.select_related("user").order_by("position"):
        xu = result.settlement.player(str(player.position)).xu
        rows.append(
            SettleAgainRow(
                user_id=player.user_id,
                name=player.user.shown_name,
                position=player.position,
                correct_xu=xu,
                correct_net=xu - fee_on_gain(xu, percent),
                paid_net=paid.get(player.user_id, 0),
            )
        )
    return rows


def round_transfers(round_: Round) -> QuerySet[Transfer]:
    """The round's own transfers and the compensations paid for its cases."""
    compensated = Compensation.objects.filter(
        dispute__round=round_, transfer__isnull=False
    ).values_list("transfer_id", flat=True)
    return (
        Transfer.objects.filter(Q(round_id=round_.pk) | Q(pk__in=list(compensated)))
        .select_related("debit", "credit", "actor")
        .order_by("pk")
    )


# --- Users --------------------------------------------------------------------------------


def search_users(q: str) -> QuerySet[User]:
    q = q.strip()
    if not q:
        return User.objects.none()
    match = Q(username__icontains=q) | Q(display_name__icontains=q)
    user_id = parse_id(q.strip())
    if user_id is not None:
        match |= Q(pk=user_id)
    return User.objects.filter(match).order_by("username")[:50]


def user_overview(user: User) -> dict[str, Any]:
    return {
        "balance": ledger_selectors.balance(user),
        "rounds": RoundPlayer.objects.filter(user=user).count(),
        "recent_rounds": RoundPlayer.objects.filter(user=user)
        .select_related("round", "round__table")
        .order_by("-round__dealt_at")[:10],
        "cases_filed": Dispute.objects.filter(filed_by=user).order_by("-created_at")[:20],
        "reports_against": Dispute.objects.filter(reported_user=user).order_by("-created_at")[:20],
        "sanctions": StaffAction.objects.filter(
            target_type="accounts.user",
            target_id=str(user.pk),
            action__in=[
                ActionKind.SUSPEND,
                ActionKind.LIFT_SUSPENSION,
                ActionKind.MUTE,
                ActionKind.UNMUTE,
            ],
        ).select_related("actor"),
        "addresses": SeatIP.objects.filter(user=user).select_related("table")[:20],
    }


# --- Dashboard ---------------------------------------------------------------------------


def open_cases() -> QuerySet[Dispute]:
    return (
        Dispute.objects.exclude(status=Status.RESOLVED)
        .select_related("filed_by", "moderator")
        .order_by("created_at")
    )


def moderator_activity(days: int = 7) -> list[dict[str, Any]]:
    """Actions per staff member over the last days, busiest first."""
    since = timezone.now() - timedelta(days=days)
    rows = (
        StaffAction.objects.filter(created_at__gte=since)
        .values("actor__username", "action")
        .annotate(n=Count("pk"))
    )
    per_actor: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        per_actor[row["actor__username"]][row["action"]] += row["n"]
    return sorted(
        (
            {"actor": actor, "total": sum(counts.values()), "actions": dict(counts)}
            for actor, counts in per_actor.items()
        ),
        key=lambda row: -int(row["total"]),
    )


def pending_compensations() -> QuerySet[Compensation]:
    return Compensation.objects.filter(status=CompensationStatus.PENDING).select_related(
        "dispute", "recipient", "requested_by"
    )


# --- Collusion signals (for review; nothing here acts on its own) ------------------------


def _recent_rounds(days: int) -> QuerySet[Round]:
    return Round.objects.filter(
        state=RoundState.SETTLED, settled_at__gte=timezone.now() - timedelta(days=days)
    )


def frequent_pairs(days: int = 30, min_rounds: int = 20) -> list[dict[str, Any]]:
    """Two players who keep sitting at the same table."""
    seats = RoundPlayer.objects.filter(round__in=_recent_rounds(days)).values_list(
        "round_id", "round__table_id", "user_id"
    )
    by_round: dict[tuple[int, int], list[int]] = defaultdict(list)
    for round_id, table_id, user_id in seats:
        by_round[(round_id, table_id)].append(user_id)
    together: Counter[tuple[int, int, int]] = Counter()
    for (_round_id, table_id), users in by_round.items():
        for a, b in combinations(sorted(users), 2):
            together[(table_id, a, b)] += 1
    names = _names({u for _t, a, b in together for u in (a, b)})
    return [
        {"table": t, "a": names.get(a, a), "b": names.get(b, b), "rounds": n}
        for (t, a, b), n in together.most_common()
        if n >= min_rounds
    ]


def shared_addresses() -> list[dict[str, Any]]:
    """Different accounts seen from one address at one table."""
    groups = (
        SeatIP.objects.values("table_id", "ip")
        .annotate(users=Count("user", distinct=True))
        .filter(users__gte=2)
        .order_by("-users")
    )
    rows = []
    for group in groups:
        users = SeatIP.objects.filter(table_id=group["table_id"], ip=group["ip"]).values_list(
            "user__username", flat=True
        )
        rows.append({"table": group["table_id"], "ip": group["ip"], "users": sorted(set(users))})
    return rows


def chip_dumping(days: int = 30, min_rounds: int = 5, share: float = 0.8) -> list[dict[str, Any]]:
    """A player who loses to the same opponent in most of the rounds they play together."""
    lost: Counter[tuple[int, int]] = Counter()
    xu: Counter[tuple[int, int]] = Counter()
    together: Counter[tuple[int, int]] = Counter()
    rounds = _recent_rounds(days).prefetch_related("players")
    for round_ in rounds:
        users = {str(p.position): p.user_id for p in round_.players.all()}
        for pair in (round_.settlement or {}).get("pairs", []):
            a, b = users.get(pair["a"]), users.get(pair["b"])
            if a is None or b is None:
                continue
            together[tuple(sorted((a, b)))] += 1  # type: ignore[index]
            amount = int(pair.get("xu", 0))
            if amount:
                loser, winner = (b, a) if amount > 0 else (a, b)
                lost[(loser, winner)] += 1
                xu[(loser, winner)] += abs(amount)
    names = _names({u for pair in lost for u in pair})
    rows = []
    for (loser, winner), n in lost.most_common():
        shared = together[tuple(sorted((loser, winner)))]  # type: ignore[index]
        if n >= min_rounds and shared and n / shared >= share:
            rows.append(
                {
                    "loser": names.get(loser, loser),
                    "winner": names.get(winner, winner),
                    "lost": n,
                    "together": shared,
                    "xu": xu[(loser, winner)],
                }
            )
    return sorted(rows, key=lambda row: -int(row["xu"]))


def _names(user_ids: set[int]) -> dict[int, str]:
    return dict(User.objects.filter(pk__in=user_ids).values_list("pk", "username"))


# --- Tournament prizes held for review ----------------------------------------------------

SIGNAL_NAMES = {
    "fouls": gettext_noop("Deliberate fouls (binh lủng sent in most rounds)"),
    "shared_address": gettext_noop("Entrants seen from one address"),
    "chip_dumping": gettext_noop("One entrant's losses going mostly to one other"),
    "check_failed": gettext_noop("The check could not run: review by hand"),
}


def prize_holds_page(decided: int = 50) -> list[dict[str, Any]]:
    """Every hold waiting for a decision (oldest first), then the latest decided ones, each
    with its signals, prizes and buy-ins named."""
    holds = ledger_selectors.prize_holds()
    pending = sorted((h for h in holds if h.decided is None), key=lambda h: h.created_at)  # type: ignore[attr-defined]
    done = [h for h in holds if h.decided is not None][:decided]  # type: ignore[attr-defined]
    shown = pending + done
    ids: set[int] = set()
    for hold in shown:
        ids |= {int(u) for u in hold.prizes}
        for finding in hold.findings:
            ids |= {int(u) for u in finding.get("users", [])}
    names = dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))
    rows = []
    for hold in shown:
        rows.append(
            {
                "hold": hold,
                "decision": hold.decided,  # type: ignore[attr-defined]
                "signals": [
                    {
                        "name": _(SIGNAL_NAMES.get(f.get("signal", ""), f.get("signal", ""))),
                        "users": [names.get(int(u), str(u)) for u in f.get("users", [])],
                        "figures": {k: v for k, v in f.items() if k not in ("signal", "users")},
                    }
                    for f in hold.findings
                ],
                "prizes": [(names.get(int(u), u), amount) for u, amount in hold.prizes.items()],
            }
        )
    return rows
