"""The daily hand, endless practice and the daily seeds' commitments. One service call thick."""

from __future__ import annotations

import secrets
from datetime import date
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from games.rules import Rules, format_cards
from games.rules.fair import deal_from_seeds
from practice import pricing, selectors, services
from practice.models import DailyAttempt, DailyDeal
from practice.pricing import Priced, Refused

SESSION_KEY = "practice_hand"


def _user(request: HttpRequest) -> User:
    return request.user  # type: ignore[return-value]


@login_required
@require_http_methods(["GET", "POST"])
def daily(request: HttpRequest) -> HttpResponse:
    """Today's hand to arrange, or, once played, your result and the board (the engine's
    best and everyone's arrangements once the day is closed: ``daily_day``)."""
    user = _user(request)
    deal = services.todays_deal()
    if request.method == "POST":
        try:
            if request.POST.get("day") != deal.day.isoformat():
                raise Refused("day_over", _("That day's hand is over: here is today's."))
            services.submit_daily(user, deal, request.POST.get("chi"))
        except Refused as refused:
            return _daily_page(request, deal, error=refused, status=400)
        return redirect("practice:daily")
    return _daily_page(request, deal)


def _daily_page(
    request: HttpRequest, deal: DailyDeal, error: Refused | None = None, status: int = 200
) -> HttpResponse:
    user = _user(request)
    today = timezone.localdate()
    attempt = selectors.attempt_of(user, deal)
    closed = selectors.is_closed(deal, today)
    context: dict[str, Any] = {
        "deal": deal,
        "closed": closed,
        "streak": selectors.streak(user, today),
        "error": error,
        "yesterday": DailyDeal.objects.filter(day__lt=today).order_by("-day").first(),
    }
    if closed:
        # The day is over: everything (the engine's best, everyone's arrangements).
        context.update(_daily_result(attempt, deal, user, closed=True))
    elif attempt is None:
        # Before the player submits: only their cards and the day's commitment. The best
        # arrangement and the board are not in the page (no spoilers).
        context["hand"] = deal.cards
    else:
        # Played, the day still open: their own arrangement, score and rank, and the
        # board's names and scores. Not the engine's best, nor anyone else's arrangement,
        # until the day closes: a second account's result is no answer for the first.
        context.update(_daily_result(attempt, deal, user, closed=False))
    return render(request, "practice/daily.html", context, status=status)


def _daily_result(
    attempt: DailyAttempt | None, deal: DailyDeal, user: User, *, closed: bool
) -> dict[str, Any]:
    rules = Rules.preset(deal.preset)
    best = services.best_of(deal) if closed else None
    context: dict[str, Any] = {
        "attempt": attempt,
        "board": selectors.board(deal, user),
        "rank": 0,
        "total": 0,
    }
    if attempt is not None:
        mine = Priced(
            chi=attempt.chi,
            ev=attempt.ev,
            win=attempt.win,
            tie=attempt.tie,
            instant=attempt.instant,
        )
        context["result"] = _result(mine, best, rules)
        context["rank"], context["total"] = selectors.rank_of(attempt)
    elif best is not None:
        context["best_only"] = {
            "best": best,
            "best_reasons": pricing.reasons(best, rules),
            "best_instant": pricing.instant_name(best.instant),
        }
    return context


def _result(mine: Priced, best: Priced | None, rules: Rules) -> dict[str, Any]:
    """The result page's figures: yours, and the engine's best when it may be shown."""
    result: dict[str, Any] = {
        "mine": mine,
        "mine_reasons": pricing.reasons(mine, rules),
        "mine_instant": pricing.instant_name(mine.instant),
    }
    if best is not None:
        result.update(
            best=best,
            gap=max(best.ev - mine.ev, 0.0),
            is_best=mine.ev >= best.ev - 1e-9,
            best_reasons=pricing.reasons(best, rules),
            best_instant=pricing.instant_name(best.instant),
        )
    return result


@login_required
@require_GET
def daily_day(request: HttpRequest, day: str) -> HttpResponse:
    """A closed day's hand: your arrangement against the engine's best, and the board with
    everyone's arrangements. Today's (or a day to come) is the daily page's."""
    try:
        wanted = date.fromisoformat(day)
    except ValueError:
        raise Http404 from None
    if wanted >= timezone.localdate():
        return redirect("practice:daily")
    deal = get_object_or_404(DailyDeal, day=wanted)
    return _daily_page(request, deal)


@require_GET
def commitments(request: HttpRequest) -> HttpResponse:
    """The daily seeds: hashes published ahead, seeds revealed (and verified) after the day."""
    today = timezone.localdate()
    services.schedule_daily_deals(today)
    return render(
        request,
        "practice/commitments.html",
        {"today": today, "rows": selectors.commitments(today)},
    )


GUEST_HANDS_PER_HOUR = 30
"""Priced practice hands a visitor without an account gets per hour from one address (the
engine's search is the costly part; players with an account are not limited)."""


def _guest_may_price(request: HttpRequest) -> bool:
    """A visitor's practice is open to anyone (the welcome page's "try a hand"), so it is
    counted per address, in the cache, over a rolling hour."""
    if request.user.is_authenticated:
        return True
    key = f"practice:guest:{request.META.get('REMOTE_ADDR', '')}"
    cache.add(key, 0, 3600)
    return cache.incr(key) <= GUEST_HANDS_PER_HOUR


@require_http_methods(["GET", "POST"])
def practice(request: HttpRequest) -> HttpResponse:
    """Endless practice: a random hand, priced like the daily one; nothing is stored.
    Open without an account (the session holds the hand)."""
    rules = Rules.preset(services.DAILY_PRESET)
    state = request.session.get(SESSION_KEY)
    if state is None:
        state = _new_practice_hand(request)
    if request.method == "POST":
        try:
            chi = pricing.read_arrangement(request.POST.get("chi"), state["cards"])
            if not _guest_may_price(request):
                raise Refused(
                    "guest_limit",
                    _("That is a lot of practice: sign up (free, with xu) to keep going."),
                )
            mine = pricing.price(chi, rules)
        except Refused as refused:
            return _practice_page(request, state, rules, error=refused, status=400)
        # Priced once here and kept with the hand: reloading the result costs nothing.
        best = pricing.best(state["cards"], rules)
        state = {**state, "result": mine.to_json(), "best": best.to_json()}
        request.session[SESSION_KEY] = state
        return redirect("practice:practice")
    return _practice_page(request, state, rules)


@require_POST
def new_practice_hand(request: HttpRequest) -> HttpResponse:
    _new_practice_hand(request)
    return redirect("practice:practice")


def _new_practice_hand(request: HttpRequest) -> dict[str, Any]:
    # The provably-fair deal from a fresh random seed: seat 1 of a four-seat deal, as daily.
    cards = deal_from_seeds(secrets.token_hex(32), ["practice"], services.DEAL_SEATS)[0]
    state: dict[str, Any] = {"cards": format_cards(cards), "result": None}
    request.session[SESSION_KEY] = state
    return state


def _practice_page(
    request: HttpRequest,
    state: dict[str, Any],
    rules: Rules,
    error: Refused | None = None,
    status: int = 200,
) -> HttpResponse:
    context: dict[str, Any] = {"error": error, "hand": state["cards"]}
    if state.get("result") and state.get("best"):
        mine, best = Priced.from_json(state["result"]), Priced.from_json(state["best"])
        context["result"] = _result(mine, best, rules)
    return render(request, "practice/practice.html", context, status=status)
