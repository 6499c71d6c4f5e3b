from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ledger import selectors, services
from ledger.errors import LedgerError
from ledger.models import TransferKind

STATEMENT_PAGE_SIZE = 25


@login_required
def statement(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind", "")
    if kind not in TransferKind.values:
        kind = ""
    page = Paginator(selectors.statement(request.user, kind or None), STATEMENT_PAGE_SIZE)
    return render(
        request,
        "ledger/statement.html",
        {
            "page": page.get_page(request.GET.get("page")),
            "kind": kind,
            "kinds": TransferKind.choices,
            "balance": selectors.balance(request.user),
        },
    )


@login_required
@require_POST
def claim_daily_bonus(request: HttpRequest) -> HttpResponse:
    """The header button. The key names the day, so a double click credits once."""
    try:
        transfer = services.claim_daily_bonus(request.user)
    except LedgerError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("Daily bonus claimed: +%(amount)s xu.") % {"amount": transfer.amount}
        )
    next_url = request.POST.get("next", "")
    if next_url and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        # A path, never a view name: redirect() would try to reverse "²" and fail.
        return HttpResponseRedirect(next_url)
    return redirect("ledger:statement")
