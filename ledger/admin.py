"""The ledger in the Django admin: read-only lists, a CSV export, statements, a dashboard.

Nothing here writes: transfers, accounts and closures have no add, change or delete
permission for anyone; corrections go through the services (adjustments, reversals).
"""

from __future__ import annotations

import csv
import uuid
from collections.abc import Iterator
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.ids import parse_id
from core.admin import ReadOnlyAdmin
from ledger import selectors, services
from ledger.errors import LedgerError
from ledger.formats import format_xu
from ledger.models import Account, AccountKind, LedgerCheckRun, RoundClosure, Transfer

CORRECT_PERMISSION = "ledger.correct_balance"


class AdjustmentForm(forms.Form):
    amount = forms.IntegerField(
        label=_("Amount (xu)"), help_text=_("Positive adds xu, negative takes xu back.")
    )
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))
    # Generated when the form is shown: submitting twice posts once.
    key = forms.CharField(widget=forms.HiddenInput)


class ReversalForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))


class InputFilter(admin.SimpleListFilter):
    """A list filter typed into a box (there are too many users and rounds to list)."""

    template = "admin/ledger/input_filter.html"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("", "")]  # one dummy choice, so Django renders the filter

    def choices(self, changelist: Any) -> Iterator[Any]:  # adds form fields to Django's dict
        others = [
            (key, value)
            for key, values in changelist.filter_params.items()
            if key != self.parameter_name
            for value in values
        ]
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.parameter_name]),
            "display": _("All"),
            "hidden": others,
            "value": self.value() or "",
        }

    def _number(self) -> int | None:
        return _id(self.value())


def _id(value: Any) -> int | None:
    """An id typed into a filter (accounts.ids), or None: "²" passes str.isdigit() but is
    no number, and a number beyond a bigint is no row."""
    return parse_id(str(value or "").strip())


class UserFilter(InputFilter):
    title = _("user (username or id)")
    parameter_name = "user"

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = (self.value() or "").strip()
        if not value:
            return queryset
        match = Q(debit__user__username=value) | Q(credit__user__username=value)
        user_id = _id(value)
        if user_id is not None:
            match |= Q(debit__user_id=user_id) | Q(credit__user_id=user_id)
        return queryset.filter(match)


class RoundFilter(InputFilter):
    title = _("round id")
    parameter_name = "round"

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() in (None, ""):
            return queryset
        number = self._number()
        return queryset.filter(round_id=number) if number is not None else queryset.none()


CSV_COLUMNS = [
    "id",
    "created_at",
    "kind",
    "amount",
    "debit",
    "debit_user",
    "credit",
    "credit_user",
    "round_id",
    "actor",
    "reason",
    "idempotency_key",
    "reverses",
]


class _Echo:
    def write(self, value: str) -> str:
        return value


def _cell(value: Any) -> Any:
    # Spreadsheets run cells that start with these as formulas; staff type the reasons.
    if isinstance(value, str) and value[:1] in {"=", "+", "-", "@"}:
        return "'" + value
    return "" if value is None else value


def transfer_rows(transfers: QuerySet[Transfer]) -> Iterator[list[Any]]:
    yield CSV_COLUMNS
    for t in transfers.select_related("debit__user", "credit__user", "actor").iterator(
        chunk_size=2_000
    ):
        yield [
            _cell(v)
            for v in (
                t.pk,
                t.created_at.isoformat(),
                t.kind,
                t.amount,
                t.debit.key,
                t.debit.user.username if t.debit.user else "",
                t.credit.key,
                t.credit.user.username if t.credit.user else "",
                t.round_id,
                t.actor.username if t.actor else "",
                t.reason,
                t.idempotency_key,
                t.reverses_id,
            )
        ]


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "created_at",
        "kind",
        "shown_amount",
        "debit",
        "credit",
        "round_id",
        "actor",
        "idempotency_key",
    )
    list_filter = ("kind", ("created_at", admin.DateFieldListFilter), UserFilter, RoundFilter)
    search_fields = ("idempotency_key", "=debit__user__username", "=credit__user__username")
    list_select_related = ("debit__user", "credit__user", "actor")
    date_hierarchy = "created_at"
    ordering = ("-id",)
    change_list_template = "admin/ledger/transfer/change_list.html"
    change_form_template = "admin/ledger/transfer/change_form.html"

    @admin.display(description=_("amount"), ordering="amount")
    def shown_amount(self, transfer: Transfer) -> str:
        return format_xu(transfer.amount)

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "export.csv",
                self.admin_site.admin_view(self.export_csv),
                name="ledger_transfer_export",
            ),
            path(
                "dashboard/",
                self.admin_site.admin_view(self.dashboard),
                name="ledger_dashboard",
            ),
            path(
                "<id:transfer_id>/reverse/",
                self.admin_site.admin_view(self.reverse_view),
                name="ledger_transfer_reverse",
            ),
            *super().get_urls(),
        ]

    def reverse_view(self, request: HttpRequest, transfer_id: int) -> HttpResponse:
        """Undo a transfer with a new one (the service refuses round flows and repeats)."""
        if not request.user.has_perm(CORRECT_PERMISSION):
            raise PermissionDenied
        transfer = get_object_or_404(
            Transfer.objects.select_related("debit", "credit"), pk=transfer_id
        )
        form = ReversalForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                reversal = services.reverse_transfer(
                    transfer, reason=form.cleaned_data["reason"], actor=request.user
                )
            except LedgerError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Posted reversal #%(id)s.") % {"id": reversal.pk})
                return redirect("admin:ledger_transfer_change", reversal.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Reverse transfer #%(id)s") % {"id": transfer.pk},
            "transfer": transfer,
            "form": form,
            "opts": self.opts,
        }
        return TemplateResponse(request, "admin/ledger/correction.html", context)

    def export_csv(self, request: HttpRequest) -> HttpResponse | StreamingHttpResponse:
        """Every transfer the current filters select, streamed (no limit, constant memory)."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        try:
            changelist = self.get_changelist_instance(request)
        except IncorrectLookupParameters:
            # What the changelist itself does with filters it cannot apply.
            return HttpResponseRedirect(f"{reverse('admin:ledger_transfer_changelist')}?e=1")
        transfers = changelist.get_queryset(request).order_by("id")
        writer = csv.writer(_Echo())
        response = StreamingHttpResponse(
            (writer.writerow(row) for row in transfer_rows(transfers)),
            content_type="text/csv; charset=utf-8",
        )
        stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
        response["Content-Disposition"] = f'attachment; filename="transfers-{stamp}.csv"'
        return response

    def dashboard(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": _("Xu ledger dashboard"),
            "circulation": selectors.circulation(),
            "wallets": selectors.wallet_total(),
            "house_revenue": selectors.house_revenue(),
            "escrow_outstanding": selectors.escrow_outstanding(),
            "open_rounds": selectors.open_round_count(),
            "bots_net_result": selectors.bots_net_result(),
            "bot_wallets": Account.objects.filter(is_bot=True).count(),
            "last_check": selectors.last_check(),
        }
        return TemplateResponse(request, "admin/ledger/dashboard.html", context)


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = (
        "key",
        "kind",
        "user",
        "round_id",
        "shown_balance",
        "version",
        "is_bot",
        "statement",
    )
    list_filter = ("kind", "is_bot")
    search_fields = ("key", "user__username", "user__display_name")
    list_select_related = ("user",)
    ordering = ("kind", "id")
    change_list_template = "admin/ledger/account/change_list.html"

    @admin.display(description=_("balance"), ordering="balance")
    def shown_balance(self, account: Account) -> str:
        return format_xu(account.balance)

    @admin.display(description=_("statement"))
    def statement(self, account: Account) -> str:
        url = reverse("admin:ledger_account_statement", args=[account.pk])
        return format_html('<a href="{}">{}</a>', url, _("statement"))

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<id:account_id>/statement/",
                self.admin_site.admin_view(self.statement_view),
                name="ledger_account_statement",
            ),
            path(
                "<id:account_id>/adjust/",
                self.admin_site.admin_view(self.adjust_view),
                name="ledger_account_adjust",
            ),
            *super().get_urls(),
        ]

    def adjust_view(self, request: HttpRequest, account_id: int) -> HttpResponse:
        """A staff adjustment of a wallet: amount, mandatory reason, recorded actor."""
        if not request.user.has_perm(CORRECT_PERMISSION):
            raise PermissionDenied
        account = get_object_or_404(
            Account.objects.select_related("user"), pk=account_id, kind=AccountKind.WALLET
        )
        form = AdjustmentForm(request.POST or None, initial={"key": f"admin:{uuid.uuid4()}"})
        if request.method == "POST" and form.is_valid():
            try:
                services.adjust_balance(
                    account.user,
                    form.cleaned_data["amount"],
                    reason=form.cleaned_data["reason"],
                    actor=request.user,
                    key=form.cleaned_data["key"],
                )
            except LedgerError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Adjustment posted."))
                return redirect("admin:ledger_account_statement", account.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Adjust the balance of %(account)s") % {"account": account},
            "account": account,
            "form": form,
            "opts": self.opts,
        }
        return TemplateResponse(request, "admin/ledger/correction.html", context)

    def statement_view(self, request: HttpRequest, account_id: int) -> HttpResponse:
        """Every posting on one account, newest first, with the balance after each."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        account = get_object_or_404(Account.objects.select_related("user"), pk=account_id)
        page = Paginator(selectors.account_statement(account), 100).get_page(
            request.GET.get("page")
        )
        context = {
            **self.admin_site.each_context(request),
            "title": _("Statement of %(account)s") % {"account": account},
            "account": account,
            "page": page,
            "opts": self.opts,
            "can_correct": account.kind == AccountKind.WALLET
            and request.user.has_perm(CORRECT_PERMISSION),
        }
        return TemplateResponse(request, "admin/ledger/statement.html", context)


@admin.register(RoundClosure)
class RoundClosureAdmin(ReadOnlyAdmin):
    list_display = ("round_id", "outcome", "shown_fee", "fee_percent", "created_at")

    @admin.display(description=_("fee"), ordering="fee")
    def shown_fee(self, closure: RoundClosure) -> str:
        return format_xu(closure.fee)

    list_filter = ("outcome",)
    search_fields = ("=round_id",)


@admin.register(LedgerCheckRun)
class LedgerCheckRunAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "ok", "duration_ms")
    list_filter = ("ok",)
