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
from ledger.formats import format_xu
from ledger.models import TransferKind

STATEMENT_PAGE_SIZE = 25


@login_required
def statement(request: HttpRequest) -> HttpResponse:
    """One line per round (net result, its movements on demand) and per other movement."""
    kind = request.GET.get("kind", "")
    if kind not in selectors.PLAYER_FILTERS:
        kind = ""
    page = Paginator(selectors.statement_lines(request.user, kind), STATEMENT_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    labels = dict(TransferKind.choices)
    return render(
        request,
        "ledger/statement.html",
        {
            "page": page,
            "lines": selectors.statement_page(request.user, page.object_list),
            "kind": kind,
            "kinds": [
                (name, _("Rounds") if name == "rounds" else labels[name])
                for name in selectors.PLAYER_FILTERS
            ],
            "balance": selectors.balance(request.user),
            "in_play": selectors.in_play(request.user),
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
            request,
            _("Daily bonus claimed: +%(amount)s xu.") % {"amount": format_xu(transfer.amount)},
        )
    next_url = request.POST.get("next", "")
    if next_url and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        # A path, never a view name: redirect() would try to reverse "²" and fail.
        return HttpResponseRedirect(next_url)
    return redirect("ledger:statement")
