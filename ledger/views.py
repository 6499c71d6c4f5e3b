"""The player's side of the ledger: the statement and the daily bonus button."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ledger import selectors, services
from ledger.errors import LedgerError
from ledger.models import TransferKind


@login_required
def statement(request: HttpRequest) -> HttpResponse:
    """Every change to the wallet, newest first; ``?round=<id>`` keeps one round's."""
    postings = selectors.statement(request.user, request.GET.get("kind") or None)
    round_id = request.GET.get("round", "")
    if round_id.isdigit():
        postings = postings.filter(transfer__round_id=int(round_id))
    else:
        round_id = ""
    page = Paginator(postings, 50).get_page(request.GET.get("page"))
    return render(
        request,
        "ledger/statement.html",
        {
            "page": page,
            "balance": selectors.balance(request.user),
            "kinds": TransferKind.choices,
            "kind": request.GET.get("kind", ""),
            "round_id": round_id,
        },
    )


@login_required
@require_POST
def daily_bonus(request: HttpRequest) -> HttpResponse:
    try:
        transfer = services.claim_daily_bonus(request.user)
    except LedgerError as exc:
        messages.error(request, exc.message)
    else:
        text = _("Daily bonus: +%(amount)s xu. Come back tomorrow!")
        messages.success(request, text % {"amount": transfer.amount})
    next_url = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = "/"
    return HttpResponseRedirect(next_url)
