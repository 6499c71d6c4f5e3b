from django.contrib import admin

from core.admin import ReadOnlyAdmin
from notices.models import Notification


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    """Read-only: a notice is written by the service that tells the player."""

    list_display = ("pk", "user", "kind", "actor", "read_at", "created_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
