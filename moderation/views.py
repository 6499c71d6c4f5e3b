"""Pages and actions; each action is one service call. Refusals become a message."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.ids import parse_id
from accounts.models import User
from accounts.roles import holds_staff_role, in_good_standing
from games.models import Round, RoundPlayer
from ledger import selectors as ledger_selectors
from moderation import selectors, services
from moderation.errors import Forbidden, ModerationError, NotFound
from moderation.models import (
    Category,
    Outcome,
    Resettlement,
    StaffAction,
    Status,
)
from moderation.roles import can_moderate, is_admin

View = Callable[..., HttpResponse]
T = TypeVar("T")


def _only(check: Callable[[Any], bool]) -> Callable[[View], View]:
    """Login first; then a user without the role gets a 404 (the page does not exist for them)."""

    def decorate(view: View) -> View:
        @wraps(view)
        @login_required
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not check(request.user):
                if holds_staff_role(request.user) and not in_good_standing(request.user):
                    # Suspended or deactivated staff: no staff power, and the log says who tried.
                    services.record_refusal(
                        _user(request),
                        view.__name__,
                        "url",
                        0,
                        Forbidden(_("A suspended staff member has no staff powers.")),
                    )
                raise Http404()
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


moderator_only = _only(can_moderate)
admin_only = _only(is_admin)


def _user(request: HttpRequest) -> User:
    """The logged-in user (every view here is behind login_required)."""
    return cast(User, request.user)


class Refused:
    """What ``_attempt`` returns for a refusal, once the user was told it in a message."""


def _attempt(request: HttpRequest, action: Callable[[], T]) -> T | Refused:
    """``action()``'s result; a refusal becomes an error message, NotFound a 404."""
    try:
        return action()
    except NotFound:
        raise Http404() from None
    except ModerationError as exc:
        messages.error(request, exc.message)
        return Refused()


def _act(request: HttpRequest, action: Callable[[], Any], done: str) -> bool:
    if isinstance(_attempt(request, action), Refused):
        return False
    messages.success(request, done)
    return True


# --- Players -----------------------------------------------------------------------------


@login_required
def file_dispute(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = get_object_or_404(Round.objects.select_related("table"), pk=round_id)
    if not RoundPlayer.objects.filter(round=round_, user=_user(request)).exists():
        raise Http404()
    if request.method == "POST":
        case = _attempt(
            request,
            lambda: services.file_dispute(
                _user(request),
                round_id,
                category=request.POST.get("category", ""),
                text=request.POST.get("text", ""),
            ),
        )
        if not isinstance(case, Refused):
            messages.success(request, _("Your dispute was filed. We will let you know."))
            return redirect("moderation:case_detail", case.pk)
    return render(
        request,
        "moderation/file_dispute.html",
        {"round": round_, "categories": Category.choices, "days": services.dispute_window().days},
    )


@login_required
def report_player(request: HttpRequest, user_id: int) -> HttpResponse:
    reported = get_object_or_404(User, pk=user_id)
    round_id = request.POST.get("round") or request.GET.get("round") or ""
    table_id = request.POST.get("table") or request.GET.get("table") or ""
    if request.method == "POST":
        case = _attempt(
            request,
            lambda: services.report_player(
                _user(request),
                user_id,
                category=request.POST.get("category", ""),
                text=request.POST.get("text", ""),
                round_id=round_id or None,
                table_id=table_id or None,
            ),
        )
        if not isinstance(case, Refused):
            messages.success(request, _("Thank you. A moderator will look at your report."))
            return redirect("moderation:case_detail", case.pk)
    return render(
        request,
        "moderation/report_player.html",
        {
            "reported": reported,
            "round_id": round_id,
            "table_id": table_id,
            "categories": Category.choices,
        },
    )


@login_required
def my_cases(request: HttpRequest) -> HttpResponse:
    context = {
        "cases": selectors.cases_of(request.user),
        "days": services.dispute_window().days,
        "history_url": reverse("games:history"),
    }
    return render(request, "moderation/my_cases.html", context)


@login_required
def case_detail(request: HttpRequest, dispute_id: int) -> HttpResponse:
    try:
        case = selectors.dispute_for(request.user, dispute_id)
    except NotFound:
        raise Http404() from None
    staff = can_moderate(request.user)
    context: dict[str, Any] = {"case": case, "staff": staff}
    if staff:
        context.update(
            {
                "limit": services.solo_allowance(_user(request)),
                "concerns_you": services.concerns(_user(request), case),
                "amount_max": settings.MODERATION_AMOUNT_MAX_XU,
                "compensations": case.compensations.select_related("requested_by", "decided_by"),
                "actions": case.actions.select_related("actor"),
                "outcomes": Outcome.choices,
                "is_handler": case.status == Status.IN_REVIEW
                and (case.moderator_id == request.user.pk or is_admin(request.user)),
            }
        )
    return render(request, "moderation/case_detail.html", context)


def notifications(request: HttpRequest) -> HttpResponse:
    """The old page of a player's notices: they are in the one inbox now. A permanent
    redirect that keeps the method, so an old form's "mark as read" still works."""
    return redirect("inbox", permanent=True, preserve_request=True)


# --- Moderators --------------------------------------------------------------------------

QUEUE_FILTERS = ("status", "category", "table", "user", "older_than_hours")


@moderator_only
def queue(request: HttpRequest) -> HttpResponse:
    filters = {name: request.GET.get(name, "").strip() for name in QUEUE_FILTERS}
    page = Paginator(selectors.queue(**filters), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "moderation/queue.html",
        {
            "page": page,
            "filters": filters,
            "statuses": Status.choices,
            "categories": Category.choices,
            "now": timezone.now(),
        },
    )


@require_POST
@moderator_only
def claim(request: HttpRequest, dispute_id: int) -> HttpResponse:
    _act(request, lambda: services.claim(_user(request), dispute_id), _("The case is yours."))
    return redirect("moderation:case_detail", dispute_id)


@require_POST
@moderator_only
def resolve(request: HttpRequest, dispute_id: int) -> HttpResponse:
    _act(
        request,
        lambda: services.resolve(
            _user(request),
            dispute_id,
            outcome=request.POST.get("outcome", ""),
            resolution=request.POST.get("resolution", ""),
        ),
        _("The case is resolved and the player was notified."),
    )
    return redirect("moderation:case_detail", dispute_id)


@require_POST
@moderator_only
def compensate(request: HttpRequest, dispute_id: int) -> HttpResponse:
    compensation = _attempt(
        request,
        lambda: services.compensate(
            _user(request),
            dispute_id,
            amount=request.POST.get("amount"),
            reason=request.POST.get("reason", ""),
        ),
    )
    if not isinstance(compensation, Refused):
        if compensation.status == "paid":
            messages.success(request, _("The compensation was paid."))
        else:
            messages.info(
                request, _("Above your limit: the compensation waits for an admin's approval.")
            )
    return redirect("moderation:case_detail", dispute_id)


@moderator_only
def replay(request: HttpRequest, round_id: int) -> HttpResponse:
    round_ = get_object_or_404(
        Round.objects.select_related("table", "board", "board__schedule"), pk=round_id
    )
    if not round_.is_finished:
        # Every hand of a round still being played is nobody's business, staff included.
        return render(request, "moderation/replay_live.html", {"round": round_}, status=409)
    if selectors.board_still_secret(_user(request), round_):
        # A duplicate board other tables may yet be dealt: seeing it bars this staff member
        # from ever being dealt it. They say so first (open_board), then see it.
        return render(
            request,
            "moderation/replay_board.html",
            {
                "round": round_,
                "board": round_.board,
                "dispute_id": _case_id(request.GET.get("case")) or "",
                "settle_again": bool(request.GET.get("settle_again")),
            },
        )
    services.record_replay_view(_user(request), round_)
    verified, verify_message = selectors.fairness(round_)
    rows = selectors.settle_again(round_) if request.GET.get("settle_again") else None
    return render(
        request,
        "moderation/replay.html",
        {
            "round": round_,
            "players": round_.players.select_related("user").order_by("position"),
            "steps": selectors.replay_steps(round_),
            "rules": round_.rules_json,
            "verified": verified,
            "verify_message": verify_message,
            "transfers": selectors.round_transfers(round_),
            "closure": ledger_selectors.round_closure(round_.pk),
            "settle_again": rows,
            "differs": bool(rows) and any(r.difference for r in rows or []),
            "dispute_id": _case_id(request.GET.get("case")) or "",
            "resettlements": Resettlement.objects.filter(round=round_).select_related("actor"),
        },
    )


@require_POST
@moderator_only
def open_board(request: HttpRequest, round_id: int) -> HttpResponse:
    """The replay's "open it anyway" of a duplicate board before its reveal."""
    _attempt(request, lambda: services.open_board(_user(request), round_id))
    query = []
    dispute_id = _case_id(request.POST.get("case"))
    if dispute_id:
        query.append(f"case={dispute_id}")
    if request.POST.get("settle_again"):
        query.append("settle_again=1")
    return redirect(_replay_url(round_id) + (f"?{'&'.join(query)}" if query else ""))


@require_POST
@moderator_only
def resettle(request: HttpRequest, round_id: int) -> HttpResponse:
    dispute_id = _case_id(request.POST.get("case"))
    resettlement = _attempt(
        request,
        lambda: services.resettle(
            _user(request), round_id, reason=request.POST.get("reason", ""), dispute_id=dispute_id
        ),
    )
    if not isinstance(resettlement, Refused):
        if resettlement is None:
            messages.info(request, _("The round was paid correctly: nothing to change."))
        else:
            messages.success(request, _("The round was settled again."))
    url = f"{_replay_url(round_id)}?settle_again=1"
    return redirect(url + (f"&case={dispute_id}" if dispute_id else ""))


@require_POST
@moderator_only
def void_round(request: HttpRequest, round_id: int) -> HttpResponse:
    reason = request.POST.get("reason", "")
    _act(
        request,
        lambda: services.staff_void_round(_user(request), round_id, reason=reason),
        _("The round was voided: every stake was returned."),
    )
    return redirect(_replay_url(round_id))


def _case_id(value: Any) -> int | None:
    """The case a replay was opened from, when the parameter names one (else None)."""
    return parse_id(value)


def _replay_url(round_id: int) -> str:
    from django.urls import reverse

    return reverse("moderation:replay", args=[round_id])


@moderator_only
def users(request: HttpRequest) -> HttpResponse:
    q = request.GET.get("q", "")
    return render(request, "moderation/users.html", {"q": q, "found": selectors.search_users(q)})


@moderator_only
def user_detail(request: HttpRequest, user_id: int) -> HttpResponse:
    target = get_object_or_404(User, pk=user_id)
    return render(
        request,
        "moderation/user_detail.html",
        {
            "target": target,
            "now": timezone.now(),
            "target_moderates": can_moderate(target),
            "limits": services.limits_of(target),
            "muted_until": selectors.muted_until(target.pk),
            **selectors.user_overview(target),
        },
    )


def _sanction(
    request: HttpRequest, user_id: int, action: Callable[..., Any], done: str, *, timed: bool
) -> HttpResponse:
    """Suspend, mute or lift either, from the user's page (hours only to impose one)."""
    fields: dict[str, Any] = {"reason": request.POST.get("reason", "")}
    if timed:
        fields["hours"] = request.POST.get("hours")
    _act(request, lambda: action(_user(request), user_id, **fields), done)
    return redirect("moderation:user_detail", user_id)


@require_POST
@moderator_only
def suspend(request: HttpRequest, user_id: int) -> HttpResponse:
    return _sanction(request, user_id, services.suspend, _("The user is suspended."), timed=True)


@require_POST
@moderator_only
def lift_suspension(request: HttpRequest, user_id: int) -> HttpResponse:
    done = _("The suspension was lifted.")
    return _sanction(request, user_id, services.lift_suspension, done, timed=False)


@require_POST
@moderator_only
def mute(request: HttpRequest, user_id: int) -> HttpResponse:
    done = _("The user's table talk is muted.")
    return _sanction(request, user_id, services.mute, done, timed=True)


@require_POST
@moderator_only
def unmute(request: HttpRequest, user_id: int) -> HttpResponse:
    return _sanction(request, user_id, services.unmute, _("The mute was lifted."), timed=False)


@require_POST
@admin_only
def set_limit(request: HttpRequest, user_id: int) -> HttpResponse:
    _act(
        request,
        lambda: services.set_compensation_limit(
            _user(request),
            user_id,
            per_payment=request.POST.get("per_payment"),
            per_day=request.POST.get("per_day"),
            reason=request.POST.get("reason", ""),
        ),
        _("The compensation limit was set."),
    )
    return redirect("moderation:user_detail", user_id)


@require_POST
@moderator_only
def close_table(request: HttpRequest, table_id: int) -> HttpResponse:
    _act(
        request,
        lambda: services.staff_close_table(
            _user(request), table_id, reason=request.POST.get("reason", "")
        ),
        _("The table is closed. A round in progress plays on to its end."),
    )
    back = _case_id(request.POST.get("case"))
    return redirect("moderation:case_detail", back) if back else redirect("moderation:queue")


@moderator_only
def signals(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "moderation/signals.html",
        {
            "pairs": selectors.frequent_pairs(),
            "addresses": selectors.shared_addresses(),
            "dumping": selectors.chip_dumping(),
        },
    )


@moderator_only
def prizes(request: HttpRequest) -> HttpResponse:
    """Tournament prizes held for review: the signals, the prizes and the decision."""
    return render(request, "moderation/prizes.html", {"holds": selectors.prize_holds_page()})


@require_POST
@moderator_only
def decide_prizes(request: HttpRequest, tournament_id: int) -> HttpResponse:
    decision = request.POST.get("decision", "")
    decided = _attempt(
        request,
        lambda: services.decide_prizes(
            _user(request), tournament_id, decision=decision, reason=request.POST.get("reason", "")
        ),
    )
    if not isinstance(decided, Refused):
        _made, new = decided
        if not new:  # a second click, or another tab: the first one decided
            messages.info(request, _("This was already decided; nothing changed."))
        elif decision == "release":
            messages.success(request, _("The prizes were released: each winner is paid."))
        else:
            messages.success(request, _("Every buy-in was returned; no prize is paid."))
    return redirect("moderation:prizes")


# --- Admins ------------------------------------------------------------------------------


@admin_only
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "moderation/dashboard.html",
        {
            "open_cases": selectors.open_cases(),
            "activity": selectors.moderator_activity(),
            "pending": selectors.pending_compensations(),
            "held_prizes": ledger_selectors.prize_holds(pending=True),
            "last_check": ledger_selectors.last_check(),
            "now": timezone.now(),
        },
    )


@admin_only
def audit_log(request: HttpRequest) -> HttpResponse:
    actions = StaffAction.objects.select_related("actor").all()
    actor = request.GET.get("actor", "").strip()
    if actor:
        actions = actions.filter(actor__username__iexact=actor)
    page = Paginator(actions, 50).get_page(request.GET.get("page"))
    return render(request, "moderation/audit_log.html", {"page": page, "actor": actor})


@require_POST
@admin_only
def approve_compensation(request: HttpRequest, compensation_id: int) -> HttpResponse:
    _act(
        request,
        lambda: services.approve_compensation(
            _user(request), compensation_id, reason=request.POST.get("reason", "")
        ),
        _("Approved and paid."),
    )
    return redirect("moderation:dashboard")


@require_POST
@admin_only
def reject_compensation(request: HttpRequest, compensation_id: int) -> HttpResponse:
    _act(
        request,
        lambda: services.reject_compensation(
            _user(request), compensation_id, reason=request.POST.get("reason", "")
        ),
        _("The request was rejected."),
    )
    return redirect("moderation:dashboard")
