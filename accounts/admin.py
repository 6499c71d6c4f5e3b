from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):  # type: ignore[type-arg]
    list_display = ("username", "display_name", "email", "is_staff", "suspended_until")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups", "preferred_language")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (
            "Mậu Binh",
            {
                "fields": (
                    "display_name",
                    "preferred_language",
                    "suspended_until",
                    "suspension_reason",
                )
            },
        ),
    )
    # Suspensions go through the moderation service (reason, audit), not a form field.
    readonly_fields = ("suspended_until", "suspension_reason")
