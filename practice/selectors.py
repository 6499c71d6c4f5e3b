"""Reads of the practice app: a player's attempt and streak, the board, the commitments."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games.rules import parse_cards
from games.rules.fair import FairnessError, verify_deal
from practice.models import DailyAttempt, DailyDeal

BOARD_SIZE = 20


def attempt_of(user: User, deal: DailyDeal) -> DailyAttempt | None:
    return DailyAttempt.objects.filter(deal=deal, user=user).first()


def streak(user: User, today: date) -> int:
    """Consecutive days, up to ``today``, on which ``user`` played the daily hand.

    A streak is alive while its last day is today or yesterday: not having played yet
    today does not break it; missing a whole day does.
    """
    days = DailyAttempt.objects.filter(user=user, deal__day__lte=today).values_list(
        "deal__day", flat=True
    )
    played = set(days.order_by("-deal__day")[:1000])
    day = today if today in played else today - timedelta(days=1)
    count = 0
    while day in played:
        count += 1
        day -= timedelta(days=1)
    return count


def _shown(deal: DailyDeal) -> QuerySet[DailyAttempt]:
    """The day's attempts on its board: no bots, no suspended players."""
    now = timezone.now()
    return (
        DailyAttempt.objects.filter(deal=deal, user__is_bot=False, user__is_api_bot=False)
        .filter(Q(user__suspended_until__isnull=True) | Q(user__suspended_until__lte=now))
        .select_related("user")
        .order_by("-ev", "submitted_at", "pk")
    )


def is_closed(deal: DailyDeal, today: date | None = None) -> bool:
    """The day is over: its board is final, and the engine's best arrangement and everyone's
    arrangements may be shown (until then, each player sees only their own)."""
    return deal.day < (today or timezone.localdate())


@dataclass(frozen=True)
class BoardRow:
    rank: int
    name: str
    ev: float
    is_you: bool
    chi: list[list[str]] | None
    """The arrangement, once the day is closed; None before (nobody copies anybody)."""


def board(
    deal: DailyDeal,
    user: User | None = None,
    size: int = BOARD_SIZE,
    today: date | None = None,
) -> list[BoardRow]:
    """The board of the day: most expected units first, ties by who submitted first. Names,
    scores and ranks; the arrangements only once the day is closed."""
    closed = is_closed(deal, today)
    return [
        BoardRow(
            rank,
            a.user.shown_name,
            a.ev,
            user is not None and a.user_id == user.pk,
            a.chi if closed else None,
        )
        for rank, a in enumerate(_shown(deal)[:size], start=1)
    ]


def rank_of(attempt: DailyAttempt) -> tuple[int, int]:
    """The attempt's place on its day's board and how many are on it (0 if it is hidden)."""
    shown = _shown(attempt.deal)
    total = shown.count()
    if not shown.filter(pk=attempt.pk).exists():
        return 0, total
    ahead = shown.filter(
        Q(ev__gt=attempt.ev)
        | Q(ev=attempt.ev, submitted_at__lt=attempt.submitted_at)
        | Q(ev=attempt.ev, submitted_at=attempt.submitted_at, pk__lt=attempt.pk)
    ).count()
    return ahead + 1, total


@dataclass(frozen=True)
class Commitment:
    day: date
    server_seed_hash: str
    client_seed: str
    server_seed: str
    """Empty until the day is over."""
    verified: bool | None
    """For a revealed day: whether its seeds deal exactly the stored hand."""


def commitments(today: date, past: int = 7) -> list[Commitment]:
    """Published hashes of the coming days and the revealed seeds of the last ``past`` days."""
    rows = DailyDeal.objects.filter(day__gte=today - timedelta(days=past)).order_by("day")
    out = []
    for deal in rows:
        revealed = deal.day < today
        out.append(
            Commitment(
                day=deal.day,
                server_seed_hash=deal.server_seed_hash,
                client_seed=deal.client_seed,
                server_seed=deal.server_seed if revealed else "",
                verified=verifies(deal, today) if revealed else None,
            )
        )
    return out


def verify_daily(deal: DailyDeal, today: date) -> None:
    """Recompute a past day's hand from its revealed seed; raise ``FairnessError`` if not.

    The same ``verify_deal`` that proves a round: the commitment matches the seed, and the
    seed with the day's client seed deals exactly the stored hands (seat 1 is the daily hand).
    """
    if deal.day >= today:
        raise FairnessError("the seed is revealed when the day is over", "not_finished")
    hands = [parse_cards(h) for h in deal.hands]
    verify_deal(deal.server_seed, deal.server_seed_hash, [deal.client_seed], hands)


def verifies(deal: DailyDeal, today: date) -> bool:
    try:
        verify_daily(deal, today)
    except FairnessError:
        return False
    return True
