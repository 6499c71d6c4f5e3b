"""The daily hand, endless practice and the daily seeds' commitments. One service call thick."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
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
    """Today's hand to arrange, or, once played, the result against the engine and the board."""
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
    today = deal.day
    attempt = selectors.attempt_of(user, deal)
    context: dict[str, Any] = {
        "deal": deal,
        "streak": selectors.streak(user, today),
        "error": error,
    }
    if attempt is None:
        # Before the player submits: only their cards and the day's commitment. The best
        # arrangement and the board are not in the page (no spoilers).
        context["hand"] = deal.cards
    else:
        context.update(_daily_result(attempt, deal, user))
    return render(request, "practice/daily.html", context, status=status)


def _daily_result(attempt: DailyAttempt, deal: DailyDeal, user: User) -> dict[str, Any]:
    rules = Rules.preset(deal.preset)
    mine = Priced(
        chi=attempt.chi, ev=attempt.ev, win=attempt.win, tie=attempt.tie, instant=attempt.instant
    )
    rank, total = selectors.rank_of(attempt)
    return {
        "attempt": attempt,
        "result": _result(mine, services.best_of(deal), rules),
        "board": selectors.board(deal, user),
        "rank": rank,
        "total": total,
    }


def _result(mine: Priced, best: Priced, rules: Rules) -> dict[str, Any]:
    return {
        "mine": mine,
        "best": best,
        "gap": max(best.ev - mine.ev, 0.0),
        "is_best": mine.ev >= best.ev - 1e-9,
        "mine_reasons": pricing.reasons(mine, rules),
        "best_reasons": pricing.reasons(best, rules),
        "mine_instant": pricing.instant_name(mine.instant),
        "best_instant": pricing.instant_name(best.instant),
    }


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
