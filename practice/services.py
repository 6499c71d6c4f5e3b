"""Writes of the practice app: committing the days' seeds and scoring a daily attempt."""

from __future__ import annotations

import secrets
from datetime import date, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.rules import Rules, format_cards
from games.rules.fair import commitment, deal_from_seeds
from practice import pricing
from practice.models import DailyAttempt, DailyDeal
from practice.pricing import Priced, Refused

DAILY_PRESET = "portal"
"""The daily hand is priced under the default preset (docs/practice.md says why)."""
DEAL_SEATS = 4
"""The day's deal is an ordinary four-seat deal; the daily hand is seat 1."""


def client_seed_for(day: date) -> str:
    """The day's public client seed: fixed by the date, so nobody chooses it."""
    return f"daily:{day.isoformat()}"


def schedule_daily_deals(today: date, ahead: int | None = None) -> int:
    """Draw and commit the seeds of ``today`` and the ``ahead`` days after it that have none.

    Returns how many days it drew a seed for. Existing days are never redrawn: their hashes are
    already public.
    """
    ahead = settings.PRACTICE_DAILY_AHEAD_DAYS if ahead is None else ahead
    days = [today + timedelta(days=n) for n in range(ahead + 1)]
    known = set(DailyDeal.objects.filter(day__in=days).values_list("day", flat=True))
    rows = [daily_deal_row(day, secrets.token_hex(32)) for day in days if day not in known]
    # Two first visitors of a day at once: the unique day keeps the first row, and both
    # then read that one (whose hash is the one published).
    DailyDeal.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def daily_deal_row(day: date, server_seed: str) -> DailyDeal:
    """The (unsaved) deal of ``day`` from ``server_seed``: seat 1 of the four-seat deal."""
    client = client_seed_for(day)
    hands = deal_from_seeds(server_seed, [client], DEAL_SEATS)
    return DailyDeal(
        day=day,
        preset=DAILY_PRESET,
        server_seed=server_seed,
        server_seed_hash=commitment(server_seed),
        client_seed=client,
        hands=[format_cards(h) for h in hands],
    )


def todays_deal(today: date | None = None) -> DailyDeal:
    """The deal of ``today`` (local date), committing the coming days' seeds if need be."""
    today = today or timezone.localdate()
    schedule_daily_deals(today)
    return DailyDeal.objects.get(day=today)


def best_of(deal: DailyDeal) -> Priced:
    """The engine's best arrangement of the day's hand, computed once and kept on the row."""
    if deal.best is None:
        priced = pricing.best(deal.cards, Rules.preset(deal.preset))
        # Computing it twice at once gives the same answer: the first write stands.
        DailyDeal.objects.filter(pk=deal.pk, best__isnull=True).update(best=priced.to_json())
        deal.best = priced.to_json()
    return Priced.from_json(deal.best)


def submit_daily(user: User, deal: DailyDeal, raw: object) -> DailyAttempt:
    """Score ``user``'s one attempt at the day's hand; raises ``Refused`` with the reason."""
    if deal.day != timezone.localdate():
        raise Refused("day_over", _("That day's hand is over: here is today's."))
    if DailyAttempt.objects.filter(deal=deal, user=user).exists():
        raise _already_played()
    chi = pricing.read_arrangement(raw, deal.cards)
    priced = pricing.price(chi, Rules.preset(deal.preset))
    best_of(deal)  # the result page compares with it: price it before anyone waits on it
    try:
        with transaction.atomic():
            return DailyAttempt.objects.create(
                deal=deal,
                user=user,
                chi=priced.chi,
                ev=priced.ev,
                win=priced.win,
                tie=priced.tie,
                instant=priced.instant,
            )
    except IntegrityError:
        # A double click or a second tab that passed the check above at the same time: the
        # unique constraint lets exactly one attempt in.
        raise _already_played() from None


def _already_played() -> Refused:
    return Refused(
        "already_played",
        _("You have already played today's hand: one scored attempt a day. Come back tomorrow!"),
    )
