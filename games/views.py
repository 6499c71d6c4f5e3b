"""Pages: the lobby, a table, the hand history; and two small JSON endpoints.

Live play goes over the websocket (``games.consumers``); these views render the pages
the scripts attach to, and each write is one service call.
"""

from __future__ import annotations

import importlib.util
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games import guide, selectors, services
from games.errors import GameError
from games.forms import CreateTableForm
from games.models import (
    DuplicateSchedule,
    PlayerStatus,
    Round,
    RoundPlayer,
    RoundState,
    Seat,
    Table,
)
from games.rules import parse_cards
from games.rules.fair import FairnessError
from games.rules.instant import INSTANT_NAMES
from games.rules.presets import BONUS_NAMES
from games.selectors import duplicate, history
from games.signals import staff_entered_private_table, table_refused
from ledger import selectors as ledger_selectors

SUGGESTIONS = 3
SUGGEST_CACHE_SECONDS = 300


def home(request: HttpRequest) -> HttpResponse:
    """The lobby for players, the welcome page for visitors."""
    if request.user.is_authenticated:
        return lobby(request)
    # A stranger sees what the game looks like: a real round, dealt, arranged and settled
    # by the engine (games.guide.sample_showdown), and can try a hand without an account.
    return render(request, "home.html", {"sample": guide.sample_showdown()})


def _user(request: HttpRequest) -> User:
    return request.user  # type: ignore[return-value]


def _lobby_page(request: HttpRequest, form: CreateTableForm, status: int = 200) -> HttpResponse:
    user = _user(request)
    seat = Seat.objects.filter(user=user).select_related("table").first()
    tables, page = selectors.lobby_page(request.GET.get("page"))
    context = {
        "tables": tables,
        "lobby_page": page,
        "form": form,
        "seat": seat,
        "balance": ledger_selectors.balance(user),
        **_rules_box(form),
    }
    return render(request, "games/lobby.html", context, status=status)


def _rules_box(form: CreateTableForm) -> dict[str, Any]:
    """What the create form's rules box shows: the rules of the table being made, for each
    preset (CSS shows the chosen one), computed by games.rules from the fields as they stand."""
    english = translation.get_language() == "en"
    facts = [
        {
            "rules": rules,
            "instant_kinds": sum(1 for units in rules.instant.values() if units > 0),
            "bonuses": [
                (key, BONUS_NAMES[key][1 if english else 0], units)
                for key, units in rules.bonus.items()
            ],
        }
        for rules in form.effective_rules()
    ]
    return {"preset_rules": facts, "rule_errors": form.rule_errors()}


@login_required
@require_GET
def effective_rules(request: HttpRequest) -> HttpResponse:
    """The create form's rules box for the fields in the query (games/create_table.js asks as
    they change): the server's own computation, so the page never shows other rules."""
    return render(request, "games/_preset_facts.html", _rules_box(CreateTableForm(request.GET)))


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    return _lobby_page(request, CreateTableForm())


@login_required
@require_POST
def create_table(request: HttpRequest) -> HttpResponse:
    form = CreateTableForm(request.POST)
    if form.is_valid():
        try:
            table = services.open_table(_user(request), **form.table_options())
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("games:table", table_id=table.pk)
    return _lobby_page(request, form, status=400)


@login_required
@require_POST
def quick_join(request: HttpRequest) -> HttpResponse:
    """Sit at the fullest open table that still has a seat this player can afford."""
    user = _user(request)
    seat = Seat.objects.filter(user=user).first()
    if seat is not None:
        return redirect("games:table", table_id=seat.table_id)
    balance = ledger_selectors.balance(user)
    rows = [selectors.lobby_row(t) for t in selectors.joinable_tables(balance)]
    candidates = sorted(
        (r for r in rows if r["free"] > 0 and r["min_balance"] <= balance),
        key=lambda r: (r["state"] == "playing", -r["taken"], r["stake"]),
    )
    for row in candidates:
        try:
            services.sit(user, row["id"])
        except GameError:
            continue  # taken meanwhile, or refused: try the next one
        return redirect("games:table", table_id=row["id"])
    messages.info(request, _("No table has a free seat you can afford right now. Open one!"))
    return redirect("games:lobby")


@login_required
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("host"), pk=table_id)
    if not selectors.may_enter(table, _user(request)):
        return _refused(request, table)
    if selectors.enters_as_staff(table, _user(request)):
        staff_entered_private_table.send(sender=None, staff_id=request.user.pk, table_id=table.pk)
    config = {
        "table": table.pk,
        "user": request.user.pk,
        "ws": f"/ws/tables/{table.pk}/",
        # xu, or a tournament's chips or points (games.stakes): what balances count in.
        "stakes_in": table.stakes_in,
        "suggest": reverse("games:suggest", kwargs={"round_id": 0}),
        "lobby": reverse("games:lobby"),
        "history": reverse("games:history"),
        "statement": reverse("ledger:statement"),
        # Where a player disputes a round or reports a player (0 stands for the id).
        "dispute": reverse("moderation:file_dispute", kwargs={"round_id": 0}),
        "report": reverse("moderation:report_player", kwargs={"user_id": 0}),
        # A player's page (profiles): their figures, and befriend or block them.
        "player": reverse("profiles:profile", kwargs={"user_id": 0}),
        # A duplicate schedule's page (its published board hashes); set at a duplicate table.
        "duplicate": reverse("games:duplicate_schedule", kwargs={"schedule_id": 0}),
        "is_duplicate": table.duplicate_schedule_id is not None,
        # Bonus names in the page's language, from games.rules (the summary names them).
        "bonus_names": {
            key: names[1] if translation.get_language() == "en" else names[0]
            for key, names in BONUS_NAMES.items()
        },
        "can_suggest": importlib.util.find_spec("games.rules.arrange") is not None,
        # The mute switch is kept on the account (every device starts with it), set by a POST.
        "sound": _user(request).sound_on,
        "sound_url": reverse("accounts:set_sound"),
        "csrf": get_token(request),
    }
    return render(
        request,
        "games/table.html",
        {
            "table": table,
            "config": config,
            "rules": table.rules.to_dict(),
            "is_host": selectors.is_acting_host(table, _user(request)),
        },
    )


def _refused(request: HttpRequest, table: Table) -> HttpResponse:
    """Kept out of a table: why, on a page of its own; kept out of a managed table, on the
    page of the app that owns it (``games.signals.table_refused``), so that a player whose
    arena board closed before their page opened it lands in the arena, not in a dead end."""
    user = _user(request)
    reason = selectors.entry_refusal(table, user) if table.is_private or table.is_managed else None
    if table.is_managed:
        for _receiver, home in table_refused.send(sender=Table, table=table, user=user):
            if home:
                if reason:
                    messages.info(request, reason)
                return redirect(str(home))
    context = {"table": table, "reason": reason}
    return render(request, "games/private_table.html", context, status=403)


def _json_error(message: str, code: str, status: int) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=status)


@login_required
@require_GET
def suggest(request: HttpRequest, round_id: int) -> JsonResponse:
    """Up to three arrangements of the requester's own cards in their current round."""
    player = (
        RoundPlayer.objects.filter(round_id=round_id, user=_user(request))
        .select_related("round")
        .first()
    )
    if player is None:
        return _json_error(_("You are not playing in this round."), "not_in_round", 404)
    round_ = player.round
    if round_.state != RoundState.ARRANGING or player.status != PlayerStatus.PLAYING:
        return _json_error(_("Arranging is over for this round."), "not_arranging", 409)
    key = f"games:suggest:{round_.pk}:{player.user_id}"
    data = cache.get(key)
    if data is None:
        try:
            from games.rules.arrange import suggest as suggest_arrangements
        except ImportError:
            return _json_error(_("Suggestions are not available yet."), "unavailable", 503)
        found = suggest_arrangements(parse_cards(player.cards), round_.rules, n=SUGGESTIONS)
        data = {"round": round_.pk, "suggestions": [_suggestion(s) for s in found[:SUGGESTIONS]]}
        cache.set(key, data, SUGGEST_CACHE_SECONDS)
    return JsonResponse(data)


def _suggestion(found: Any) -> dict[str, Any]:
    data: dict[str, Any] = found.to_json()
    kind = data.get("instant")
    names = INSTANT_NAMES.get(kind) if kind else None
    data["instant_name"] = {"vi": names[0], "en": names[1]} if names else None
    return data


@login_required
def history_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(history.rounds_played(_user(request)), 25).get_page(request.GET.get("page"))
    return render(request, "games/history.html", {"page": page})


@login_required
def round_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    user = _user(request)
    round_ = history.viewable_round(user, round_id)
    if round_ is None:
        raise Http404(_("You did not play this round."))
    context: dict[str, Any] = {"round": round_, "finished": round_.is_finished}
    context["spectator"] = not round_.players.filter(user=user).exists()
    context["holders"] = duplicate.others_with_these_cards(round_, user)
    if round_.is_finished:
        lines = history.player_lines(round_, user)
        names = {line.position: line.name for line in lines}
        context.update(
            {
                "players": lines,
                "names": names,
                "pairs": history.pair_rows(round_, names),
                "postings": history.round_postings(user, round_.pk),
                "hindsight": history.hindsight(round_, user)
                if round_.state == RoundState.SETTLED
                else None,
                "mine": next((line for line in lines if line.is_you), None),
                "dispute_until": _dispute_until(round_),
                "dispute_days": settings.MODERATION_DISPUTE_WINDOW_DAYS,
            }
        )
    return render(request, "games/round_detail.html", context)


def _dispute_until(round_: Round) -> datetime | None:
    """Until when the round can be disputed (the moderation window), or None once closed."""
    until = (round_.settled_at or round_.dealt_at) + timedelta(
        days=settings.MODERATION_DISPUTE_WINDOW_DAYS
    )
    return until if until > timezone.now() else None


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """How to play: both presets, every hand, bonus, scoop and instant win (from games.rules)."""
    return render(
        request,
        "games/rules.html",
        {"presets": guide.presets(), "three_card": guide.three_card_ranking()},
    )


@login_required
@require_POST
def verify(request: HttpRequest, round_id: int) -> JsonResponse:
    """Recompute the deal from the revealed seeds (provably fair)."""
    round_ = history.played_round(_user(request), round_id)
    if round_ is None:
        return _json_error(_("You did not play this round."), "not_found", 404)
    try:
        selectors.verify_round(round_)
    except FairnessError as exc:
        code = getattr(exc, "code", "")
        if code == "not_finished":
            message = _("The server seed is revealed when the round is over.")
        elif code == "board_not_revealed":
            message = _(
                "Not yet: this round played a duplicate board, whose seed is revealed once "
                "the board's play is over (other tables may still be dealt it). Its hash is "
                "published: come back then to verify the deal."
            )
            return JsonResponse({"ok": False, "pending": True, "message": message})
        else:
            message = _("Verification failed: the deal does not match the seeds.")
        return JsonResponse({"ok": False, "message": message})
    return JsonResponse(
        {
            "ok": True,
            "message": _(
                "Verified: the commitment matches the server seed, and the seeds deal "
                "exactly these cards."
            ),
        }
    )


@login_required
def duplicate_schedule(request: HttpRequest, schedule_id: int) -> HttpResponse:
    """A schedule's published board hashes, revealed seeds and standings."""
    schedule = get_object_or_404(DuplicateSchedule, pk=schedule_id)
    results = duplicate.schedule_results(schedule.pk)
    return render(
        request,
        "games/duplicate_schedule.html",
        {
            "schedule": schedule,
            "boards": duplicate.board_commitments(schedule),
            "totals": duplicate.schedule_totals(schedule.pk, results),
        },
    )
