"""Moderation in the Django admin: everything visible, nothing editable here.

Cases, compensations and sanctions change only through the moderation pages (services
with their audit rows); the audit log cannot be changed by anyone.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from core.admin import ReadOnlyAdmin
from ledger.formats import format_xu
from moderation.models import (
    Compensation,
    Dispute,
    ModeratorLimit,
    Resettlement,
    SeatIP,
    StaffAction,
    UserIP,
)
from moderation.templatetags.moderation_tags import audit_values


@admin.register(StaffAction)
class StaffActionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "actor", "action", "target_type", "target_id", "reason")
    list_filter = ("action", "created_at")
    search_fields = ("actor__username", "target_repr", "reason")
    date_hierarchy = "created_at"
    # The recorded states are shown as "label: value" lines, not as raw JSON.
    fields = (
        "created_at",
        "actor",
        "action",
        "target_type",
        "target_id",
        "target_repr",
        "dispute",
        "reason",
        "shown_before",
        "shown_after",
    )
    readonly_fields = fields

    @admin.display(description=_("before"))
    def shown_before(self, action: StaffAction) -> str:
        return audit_values(action.before)

    @admin.display(description=_("after"))
    def shown_after(self, action: StaffAction) -> str:
        return audit_values(action.after)


@admin.register(Dispute)
class DisputeAdmin(ReadOnlyAdmin):
    list_display = (
        "pk",
        "kind",
        "category",
        "status",
        "outcome",
        "filed_by",
        "moderator",
        "created_at",
    )
    list_filter = ("kind", "status", "category", "outcome")
    search_fields = ("filed_by__username", "reported_user__username", "text")


@admin.register(Compensation)
class CompensationAdmin(ReadOnlyAdmin):
    list_display = (
        "pk",
        "dispute",
        "recipient",
        "shown_amount",
        "status",
        "requested_by",
        "decided_by",
    )

    @admin.display(description=_("amount (xu)"), ordering="amount")
    def shown_amount(self, compensation: Compensation) -> str:
        return format_xu(compensation.amount)

    list_filter = ("status",)


@admin.register(Resettlement)
class ResettlementAdmin(ReadOnlyAdmin):
    list_display = ("pk", "round", "actor", "reason", "created_at")


@admin.register(SeatIP)
class SeatIPAdmin(ReadOnlyAdmin):
    list_display = ("user", "table", "ip", "first_seen", "last_seen")
    search_fields = ("ip", "user__username")


@admin.register(UserIP)
class UserIPAdmin(ReadOnlyAdmin):
    list_display = ("user", "ip", "seen_at")
    search_fields = ("ip", "user__username")


@admin.register(ModeratorLimit)
class ModeratorLimitAdmin(ReadOnlyAdmin):
    """Set on the moderation user page, where the change is audited with its reason."""

    list_display = ("moderator", "per_payment", "per_day", "set_by", "set_at")
