from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from notices.models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: a notice is written by the service that tells the player."""

    list_display = ("pk", "user", "kind", "actor", "read_at", "created_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
